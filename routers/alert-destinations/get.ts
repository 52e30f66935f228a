import { alertDestinationParams, alertDestinationSchema } from '../../contracts/alerts.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { findDestination, toDestinationView } from './destination-rows.js';

export const getProcedure = authedPersistedProcedure
  .meta({
    permission: 'alerts.read',
    errors: { NOT_FOUND: 'No such destination' },
    openapi: {
      method: 'GET',
      path: '/alerts/destinations/{destinationId}',
      tags: ['alerts'],
      summary: 'One alert destination (its URL shown as its origin)',
    },
  })
  .input(alertDestinationParams)
  .output(alertDestinationSchema)
  .query(async ({ ctx, input }) =>
    toDestinationView(
      await findDestination(ctx.em, ctx.actor.organizationId, input.destinationId),
      ctx.services.secretCipher,
    ),
  );
