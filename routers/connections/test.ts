import { testConnectionInput, testConnectionResultSchema } from '../../contracts/connections.js';
import { testConnection } from './test-connection.js';
import { authedProcedure } from '../../server/trpc/procedures.js';

export const testProcedure = authedProcedure
  .meta({
    permission: 'connections.test',
    errors: {
      INVALID_URL: '',
      CONNECTION_TARGET_FORBIDDEN: 'Checked before anything is contacted, and for every node a cluster reports',
      FORBIDDEN: 'Another organization owns it',
      NOT_FOUND: 'No such connection',
      ENCRYPTION_KEY_MISMATCH: '',
    },
    bodyExample: { url: 'redis://127.0.0.1:6379' },
    bodyAlternatives: [['id'], ['url']],
    openapi: {
      method: 'POST',
      path: '/connections/test',
      tags: ['connections'],
      summary: 'Connect to a store (saved id, or a URL) within 3 s; an unreachable store is ok:false, not an error',
    },
  })
  .input(testConnectionInput)
  .output(testConnectionResultSchema)
  .mutation(({ ctx, input }) =>
    testConnection({
      connections: ctx.services.connections,
      policy: ctx.services.targetPolicy,
      organizationId: ctx.actor.organizationId,
      input,
    }),
  );
