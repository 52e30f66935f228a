import { connectionIdParams, connectionRecordSchema } from '../../contracts/connections.js';
import { getConnection as getVisibleConnection } from '../../domain/connections/list-connections.js';
import { authedProcedure } from '../../server/trpc/procedures.js';

export const getConnection = authedProcedure
  .meta({
    permission: 'connections.read',
    openapi: {
      method: 'GET',
      path: '/connections/{id}',
      tags: ['connections'],
      summary: 'One connection (URL redacted)',
      errorResponses: { 403: 'Another organization owns it', 404: 'No such connection' },
    },
  })
  .input(connectionIdParams)
  .output(connectionRecordSchema)
  .query(({ ctx, input }) =>
    getVisibleConnection({ connections: ctx.services.connections, organizationId: ctx.actor.organizationId, id: input.id }),
  );
