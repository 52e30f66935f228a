import { connectionIdParams, deletedConnectionSchema } from '../../contracts/connections.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { deleteConnection } from './delete-connection.js';
import { savedConnectionWriteProcedure } from '../../server/trpc/procedures.js';

export const deleteProcedure = savedConnectionWriteProcedure
  .meta({
    permission: 'connections.write',
    errors: {
      FORBIDDEN: 'Connections are managed by the environment, or another organization owns it',
      NOT_FOUND: 'No such connection',
    },
    openapi: {
      method: 'DELETE',
      path: '/connections/{id}',
      tags: ['connections'],
      summary: 'Delete a saved connection (the oldest other one becomes default if it was)',
    },
  })
  .input(connectionIdParams)
  .output(deletedConnectionSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(
      input.id,
      await deleteConnection({
        em: ctx.em,
        stores: ctx.services.stores,
        organizationId: ctx.actor.organizationId,
        id: input.id,
      }),
    ),
  );
