import { connectionRecordSchema, updateConnectionInput } from '../../contracts/connections.js';
import { updateConnection } from './update-connection.js';
import { savedConnectionWriteProcedure } from '../../server/trpc/procedures.js';

export const updateProcedure = savedConnectionWriteProcedure
  .meta({
    permission: 'connections.write',
    errors: {
      INVALID_URL: '',
      CONNECTION_TARGET_FORBIDDEN: 'The new `url` targets a refused host',
      FORBIDDEN: 'Connections are managed by the environment, or another organization owns it',
      NOT_FOUND: 'No such connection',
      CONFLICT: 'Name already used',
      ENCRYPTION_KEY_MISSING: '',
      ENCRYPTION_KEY_MISMATCH: '',
    },
    bodyExample: { environment: 'staging' },
    openapi: {
      method: 'PATCH',
      path: '/connections/{id}',
      tags: ['connections'],
      summary: 'Change any field of a saved connection',
    },
  })
  .input(updateConnectionInput)
  .output(connectionRecordSchema)
  .mutation(({ ctx, input }) =>
    updateConnection({
      em: ctx.em,
      cipher: ctx.services.urlCipher,
      policy: ctx.services.targetPolicy,
      stores: ctx.services.stores,
      organizationId: ctx.actor.organizationId,
      input,
    }),
  );
