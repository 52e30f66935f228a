import { expect, it } from 'vitest';
import { bootApp, request } from '../../helpers/app.js';
import { bearer, sql } from '../../helpers/auth.js';
import { DocumentValidator } from '../document-validator.js';
import { app, browser, docs, document, owner, queuePath, state, withExample } from './tour.js';

/** The error classes every route shares (checked once each), and the account routes of an authless app. */
export function sharedErrorChecks(): void {
  it('each shared error class: 400 bad JSON, 401, 403 (role and CSRF), 413, 415, 429, 500, 503', async () => {
    const pause = { operation: 'POST /c/{connectionId}/queues/{queueName}/pause', path: queuePath() };
    await docs.check({ ...pause, headers: { ...owner(), 'content-type': 'application/json' }, rawBody: '{' }, 400);
    await docs.check({ operation: 'GET /connections' }, 401);
    await docs.check({ ...pause, headers: bearer(state.viewerToken!), body: {} }, 403);
    await docs.check(
      {
        ...withExample('POST /organizations'),
        headers: { cookie: state.cookie!, origin: 'https://elsewhere.example' },
      },
      403,
    );
    await docs.check(
      {
        operation: 'POST /c/{connectionId}/queues/{queueName}/jobs',
        path: queuePath(),
        headers: owner(),
        body: { name: 'big', data: 'x'.repeat(1_100_000) },
      },
      413,
    );
    await docs.check({ ...pause, headers: { ...owner(), 'content-type': 'text/plain' }, rawBody: 'pause please' }, 415);
    await docs.check(
      { operation: 'GET /c/{connectionId}/queues', path: { connectionId: state.down! }, headers: owner() },
      503,
    );
    await sql(app, `UPDATE "connection" SET "url_sealed" = 'not-a-sealed-url' WHERE "id" = '${state.down}'`);
    await docs.check({ operation: 'GET /connections/{id}', path: { id: state.down! }, headers: owner() }, 500);
    await docs.check(
      { operation: 'DELETE /auth/tokens/{id}', path: { id: state.viewerTokenId! }, headers: browser() },
      200,
    );
    await docs.check(
      { operation: 'DELETE /auth/tokens/{id}', path: { id: state.viewerTokenId! }, headers: browser() },
      404,
    );
    const signIn = { ...withExample('POST /auth/sign-in/email') };
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 429; attempt++)
      status = (await request(`${app.api}/auth/sign-in/email`, { method: 'POST', body: signIn.body })).status;
    expect(status).toBe(429);
    await docs.check(signIn, 429);
    // Sign-out with an empty JSON body here; body-less (as generated clients send it) in openapi-client.test.ts.
    await docs.check({ operation: 'POST /auth/sign-out', headers: browser(), body: {} }, 200);
  });

  it('account routes in authless mode: 400 AUTHLESS_MODE', async () => {
    const authless = await bootApp({ env: { SERVICE_AUTHLESS: 'true' } });
    try {
      const authlessDocs = await DocumentValidator.create(document, authless.api);
      await authlessDocs.check({ operation: 'GET /auth/tokens' }, 400);
      await authlessDocs.check(withExample('POST /organizations'), 400);
      await authlessDocs.check({ operation: 'GET /auth/providers' }, 400);
      await authlessDocs.check({ operation: 'GET /invitations/{token}', path: { token: 'bpi_any' } }, 400);
      await authlessDocs.check(withExample('POST /auth/reset-password'), 400);
      await authlessDocs.check({ operation: 'GET /auth/sign-in/{provider}', path: { provider: 'github' } }, 400);
    } finally {
      await authless.close();
    }
  });
}
