import { connectionIdParams, deletedConnectionSchema } from '../../contracts/connections.js';
import { deleteConnection as removeConnection } from '../../domain/connections/delete-connection.js';
import { savedConnectionWriteProcedure } from '../../server/trpc/procedures.js';

export const deleteConnection = savedConnectionWriteProcedure
  .meta({
    permission: 'connections.write',
    openapi: {
      method: 'DELETE',
      path: '/connections/{id}',
      tags: ['connections'],
      summary: 'Delete a saved connection (the oldest other one becomes default if it was)',
      errorResponses: { 403: 'Environment mode, or another organization owns it', 404: 'No such connection' },
    },
  })
  .input(connectionIdParams)
  .output(deletedConnectionSchema)
  .mutation(({ ctx, input }) =>
    removeConnection({ em: ctx.em, stores: ctx.services.stores, organizationId: ctx.actor.organizationId, id: input.id }),
  );
