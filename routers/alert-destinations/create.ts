import { createAlertDestinationInput, createdAlertDestinationSchema } from '../../contracts/alerts.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { createDestination } from './destination-rows.js';

export const createProcedure = authedPersistedProcedure
  .meta({
    permission: 'alerts.write',
    successStatus: 201,
    location: '/alerts/destinations/{id}',
    errors: { ENCRYPTION_KEY_MISSING: '', WEBHOOK_TARGET_FORBIDDEN: '' },
    // A loopback receiver: the target is resolved and checked when saved, so the example must exist as a name.
    bodyExample: { type: 'webhook', name: 'ops webhook', url: 'http://127.0.0.1:8080/bullpen-alerts' },
    openapi: {
      method: 'POST',
      path: '/alerts/destinations',
      tags: ['alerts'],
      summary: 'Add a webhook or Slack destination; the answer carries its signing `secret` once',
      description:
        'A delivery is a POST of JSON `{ event, rule, connection, queueName, value, threshold, state, at }` with `X-Bullpen-Event-Id` (stable across retries), `Bullpen-Timestamp` (Unix seconds of the attempt) and `Bullpen-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the secret>` (refuse old timestamps to refuse replays; `X-Bullpen-Signature`, the HMAC of the body alone, is kept for older receivers); retried with exponential backoff for an hour. Slack destinations get formatted text.',
    },
  })
  .input(createAlertDestinationInput)
  .output(createdAlertDestinationSchema)
  .mutation(({ ctx, input }) =>
    createDestination(
      {
        em: ctx.em,
        cipher: ctx.services.secretCipher,
        policy: ctx.services.webhookPolicy,
        organizationId: ctx.actor.organizationId,
      },
      input,
    ),
  );
