import { testConnectionInput, testConnectionResultSchema } from '../../contracts/connections.js';
import { testConnection as probeConnection } from '../../domain/connections/test-connection.js';
import { authedProcedure } from '../../server/trpc/procedures.js';

export const testConnection = authedProcedure
  .meta({
    permission: 'connections.test',
    openapi: {
      method: 'POST',
      path: '/connections/test',
      tags: ['connections'],
      summary: 'Connect to a store (saved id, or a URL) within 3 s; an unreachable store is ok:false, not an error',
      errorResponses: { 400: 'Invalid url, or neither/both of id and url', 403: 'Another organization owns it', 404: 'No such connection' },
    },
  })
  .input(testConnectionInput)
  .output(testConnectionResultSchema)
  .mutation(({ ctx, input }) => probeConnection({ connections: ctx.services.connections, organizationId: ctx.actor.organizationId, input }));
