import { deleteKeyResultSchema, keyParams } from '../../contracts/store-keys.js';
import { deleteKey as deleteStoreKey } from '../../domain/store-keys/delete-key.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const deleteKey = connectionProcedure
  .meta({
    permission: 'keys.delete',
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/store-keys/{key}',
      tags: ['store-keys'],
      summary: 'Delete a key (never one under a reserved queue prefix)',
      errorResponses: { 403: 'RESERVED_KEY: the key belongs to the queue library', 404: 'No such connection or key', 503: 'The store is unavailable' },
    },
  })
  .input(keyParams)
  .output(deleteKeyResultSchema)
  .mutation(({ ctx, input }) => deleteStoreKey({ store: ctx.store, key: input.key }));
