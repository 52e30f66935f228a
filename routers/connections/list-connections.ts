import { z } from 'zod';
import { connectionListSchema } from '../../contracts/connections.js';
import { listConnections as listVisibleConnections } from '../../domain/connections/list-connections.js';
import { authedProcedure } from '../../server/trpc/procedures.js';

export const listConnections = authedProcedure
  .meta({
    permission: 'connections.read',
    openapi: { method: 'GET', path: '/connections', tags: ['connections'], summary: 'Connections of the organization (URLs redacted)' },
  })
  .input(z.void())
  .output(connectionListSchema)
  .query(({ ctx }) => listVisibleConnections({ connections: ctx.services.connections, organizationId: ctx.actor.organizationId }));
