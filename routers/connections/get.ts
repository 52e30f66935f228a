import { connectionIdParams, connectionRecordSchema } from '../../contracts/connections.js';
import { getConnection } from './list-connections.js';
import { authedProcedure } from '../../server/trpc/procedures.js';

export const getProcedure = authedProcedure
  .meta({
    permission: 'connections.read',
    errors: { FORBIDDEN: 'Another organization owns it', NOT_FOUND: 'No such connection', ENCRYPTION_KEY_MISMATCH: '' },
    openapi: {
      method: 'GET',
      path: '/connections/{id}',
      tags: ['connections'],
      summary: 'One connection (URL redacted)',
    },
  })
  .input(connectionIdParams)
  .output(connectionRecordSchema)
  .query(({ ctx, input }) =>
    getConnection({ connections: ctx.services.connections, organizationId: ctx.actor.organizationId, id: input.id }),
  );
