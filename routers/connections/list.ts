import { z } from 'zod';
import { connectionListSchema } from '../../contracts/connections.js';
import { listConnections } from './list-connections.js';
import { authedProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = authedProcedure
  .meta({
    permission: 'connections.read',
    openapi: {
      method: 'GET',
      path: '/connections',
      tags: ['connections'],
      summary: 'Connections of the organization (URLs redacted)',
    },
  })
  .input(z.void())
  .output(connectionListSchema)
  .query(({ ctx }) =>
    listConnections({ connections: ctx.services.connections, organizationId: ctx.actor.organizationId }),
  );
