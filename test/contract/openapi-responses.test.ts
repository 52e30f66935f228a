import { describe, expect, it } from 'vitest';
import { accountChecks } from './openapi-responses/accounts.js';
import { alertAndEventChecks } from './openapi-responses/alerts-and-events.js';
import { connectionAndJobChecks } from './openapi-responses/connections-and-jobs.js';
import { queueAdministrationChecks } from './openapi-responses/queue-administration.js';
import { sharedErrorChecks } from './openapi-responses/shared-errors.js';
import { bootTour, docs } from './openapi-responses/tour.js';

/**
 * Every operation of /api/openapi.json is called for real: its success with
 * the document's own example body where it has one, its route-specific errors,
 * and each shared error class once. Each answer is validated against the
 * document (status listed, body matching its schema) by openapi-backend.
 *
 * The calls run as one tour, in this order (each chapter uses what the ones
 * before it created); the chapters are in ./openapi-responses/.
 */
bootTour();

describe('every operation answers as /api/openapi.json says', () => {
  accountChecks();
  connectionAndJobChecks();
  queueAdministrationChecks();
  alertAndEventChecks();
  sharedErrorChecks();

  it('the validator itself refuses an unlisted status and a body that does not match', () => {
    const name = 'GET /c/{connectionId}/queues/{queueName}';
    const operation = docs.operation(name);
    expect(() =>
      docs.expectDocumented(name, operation, 418, 'application/json', { message: 'teapot', code: 'NOT_FOUND' }),
    ).toThrow(/does not list status 418/);
    expect(() =>
      docs.expectDocumented(name, operation, 404, 'application/json', { message: 'gone', code: 'PURGE_CAP_REACHED' }),
    ).toThrow(/body/);
    expect(() => docs.expectDocumented(name, operation, 200, 'application/json', { name: 'emails' })).toThrow(/body/);
    expect(() => docs.expectDocumented(name, operation, 200, 'text/html', '<p>')).toThrow(/media type/);
  });

  it('covered every operation of the document with a success', () => {
    const withoutSuccess = docs
      .operations()
      .filter((operation) => ![...(docs.seen.get(operation) ?? [])].some((status) => status < 300));
    // An alert event exists only once the sampler's evaluation fires a rule; its 404 is checked above.
    // The provider redirects succeed with a 302 to a configured provider: test/auth/oauth/ drives them.
    expect(withoutSuccess).toEqual([
      'POST /c/{connectionId}/alerts/events/{eventId}/acknowledge',
      'GET /auth/sign-in/{provider}',
      'GET /auth/callback/{provider}',
      'GET /auth/link/{provider}',
    ]);
  });
});
