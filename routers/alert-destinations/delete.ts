import { deletedAnswer, deletedSchema } from '../../contracts/deleted.js';
import { alertDestinationParams } from '../../contracts/alerts.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { deleteDestination } from './destination-rows.js';

export const deleteProcedure = authedPersistedProcedure
  .meta({
    permission: 'alerts.write',
    errors: { NOT_FOUND: 'No such destination' },
    openapi: {
      method: 'DELETE',
      path: '/alerts/destinations/{destinationId}',
      tags: ['alerts'],
      summary: 'Remove a destination (and from every rule naming it)',
    },
  })
  .input(alertDestinationParams)
  .output(deletedSchema)
  .mutation(async ({ ctx, input }) => {
    await deleteDestination(ctx.em, ctx.actor.organizationId, input.destinationId);
    return deletedAnswer(input.destinationId, {});
  });
