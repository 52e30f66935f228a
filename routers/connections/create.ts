import { connectionRecordSchema, createConnectionInput } from '../../contracts/connections.js';
import { createConnection } from './create-connection.js';
import { savedConnectionWriteProcedure } from '../../server/trpc/procedures.js';

export const createProcedure = savedConnectionWriteProcedure
  .meta({
    permission: 'connections.write',
    successStatus: 201,
    location: '/connections/{id}',
    errors: {
      INVALID_URL: '',
      CONNECTION_TARGET_FORBIDDEN: '',
      FORBIDDEN: 'Connections are managed by the environment',
      CONFLICT: 'Name already used',
      ENCRYPTION_KEY_MISSING: '',
    },
    bodyExample: { name: 'local', url: 'redis://127.0.0.1:6379', environment: 'development' },
    openapi: {
      method: 'POST',
      path: '/connections',
      tags: ['connections'],
      summary: 'Save a connection (URL encrypted at rest)',
      successDescription: 'The saved connection, URL redacted',
    },
  })
  .input(createConnectionInput)
  .output(connectionRecordSchema)
  .mutation(({ ctx, input }) =>
    createConnection({
      em: ctx.em,
      cipher: ctx.services.urlCipher,
      policy: ctx.services.targetPolicy,
      organizationId: ctx.actor.organizationId,
      input,
    }),
  );
