import { alertDeliveryListSchema, alertDestinationParams } from '../../contracts/alerts.js';
import { AlertDelivery } from '../../server/persistence/entities/alerts.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { findDestination } from './destination-rows.js';

export const deliveriesProcedure = authedPersistedProcedure
  .meta({
    permission: 'alerts.read',
    errors: { NOT_FOUND: 'No such destination' },
    openapi: {
      method: 'GET',
      path: '/alerts/destinations/{destinationId}/deliveries',
      tags: ['alerts'],
      summary: "A destination's delivery log: status codes and attempts, newest first",
    },
  })
  .input(alertDestinationParams)
  .output(alertDeliveryListSchema)
  .query(async ({ ctx, input }) => {
    await findDestination(ctx.em, ctx.actor.organizationId, input.destinationId);
    const rows = await ctx.em.find(
      AlertDelivery,
      { destinationId: input.destinationId },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 100 },
    );
    return {
      deliveries: rows.map((row) => ({
        id: row.id,
        eventId: row.eventKey,
        status: row.status as 'pending' | 'delivered' | 'failed',
        attempts: row.attempts,
        lastStatusCode: row.lastStatusCode ?? null,
        lastError: row.lastError ?? null,
        createdAt: row.createdAt.toISOString(),
        deliveredAt: row.deliveredAt?.toISOString() ?? null,
        nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
      })),
    };
  });
