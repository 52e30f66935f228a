import { connectionRecordSchema, createConnectionInput } from '../../contracts/connections.js';
import { createConnection as saveConnection } from '../../domain/connections/create-connection.js';
import { savedConnectionWriteProcedure } from '../../server/trpc/procedures.js';

export const createConnection = savedConnectionWriteProcedure
  .meta({
    permission: 'connections.write',
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/connections',
      tags: ['connections'],
      summary: 'Save a connection (URL encrypted at rest)',
      successDescription: 'The saved connection, URL redacted',
      errorResponses: { 400: 'Invalid field', 403: 'Connections are managed by the environment', 409: 'Name already used', 500: 'No encryption key' },
    },
  })
  .input(createConnectionInput)
  .output(connectionRecordSchema)
  .mutation(({ ctx, input }) =>
    saveConnection({ em: ctx.em, cipher: ctx.services.urlCipher, organizationId: ctx.actor.organizationId, input }),
  );
