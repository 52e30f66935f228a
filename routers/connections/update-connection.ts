import { connectionRecordSchema, updateConnectionInput } from '../../contracts/connections.js';
import { updateConnection as changeConnection } from '../../domain/connections/update-connection.js';
import { savedConnectionWriteProcedure } from '../../server/trpc/procedures.js';

export const updateConnection = savedConnectionWriteProcedure
  .meta({
    permission: 'connections.write',
    openapi: {
      method: 'PATCH',
      path: '/connections/{id}',
      tags: ['connections'],
      summary: 'Change any field of a saved connection',
      errorResponses: { 400: 'Invalid field', 403: 'Environment mode, or another organization owns it', 404: 'No such connection', 409: 'Name already used' },
    },
  })
  .input(updateConnectionInput)
  .output(connectionRecordSchema)
  .mutation(({ ctx, input }) =>
    changeConnection({ em: ctx.em, cipher: ctx.services.urlCipher, stores: ctx.services.stores, organizationId: ctx.actor.organizationId, input }),
  );
