import { randomUUID } from 'node:crypto';
import { alertDestinationParams, alertDestinationTestSchema } from '../../contracts/alerts.js';
import { openDestination } from '../../server/alerts/deliveries.js';
import { sendTestDelivery } from '../../server/alerts/send-delivery.js';
import { AlertDelivery } from '../../server/persistence/entities/alerts.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { findDestination } from './destination-rows.js';

export const testProcedure = authedPersistedProcedure
  .meta({
    permission: 'alerts.write',
    errors: { NOT_FOUND: 'No such destination' },
    openapi: {
      method: 'POST',
      path: '/alerts/destinations/{destinationId}/test',
      tags: ['alerts'],
      summary: 'Send one signed test delivery now (no retries) and answer how it went',
      description:
        'One answer per outcome: delivered (2xx), `answered <status>`, no HTTP answer (unreachable, silent, or not an HTTP server: answered after the 5 s deadline whatever the cause), or refused by SERVICE_WEBHOOK_ALLOW.',
    },
  })
  .input(alertDestinationParams)
  .output(alertDestinationTestSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await findDestination(ctx.em, ctx.actor.organizationId, input.destinationId);
    const at = new Date();
    const payload = {
      event: `test:${randomUUID()}`,
      rule: { id: 'test', name: 'Test delivery', type: 'test' },
      connection: { id: 'test', name: 'test' },
      queueName: null,
      value: 0,
      threshold: 0,
      state: 'test' as const,
      at: at.toISOString(),
    };
    const result = await sendTestDelivery(
      openDestination(ctx.services.secretCipher, row),
      payload,
      ctx.services.webhookPolicy,
    );
    ctx.em.create(AlertDelivery, {
      id: randomUUID(),
      destinationId: row.id,
      eventKey: payload.event,
      payload: JSON.stringify(payload),
      status: result.delivered ? 'delivered' : 'failed',
      attempts: 1,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      nextAttemptAt: at,
      createdAt: at,
      deliveredAt: result.delivered ? new Date() : null,
    });
    await ctx.em.flush();
    return result;
  });
