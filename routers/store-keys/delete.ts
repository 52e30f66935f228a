import { deleteKeyInput, deleteKeyResultSchema } from '../../contracts/store-keys.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { deleteKey } from './delete-key.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const deleteProcedure = connectionProcedure
  .meta({
    permission: 'keys.delete',
    errors: { RESERVED_KEY: '' },
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/store-keys/{key}',
      tags: ['store-keys'],
      summary: 'Delete a key (never one under a reserved queue prefix)',
    },
  })
  .input(deleteKeyInput)
  .output(deleteKeyResultSchema)
  .mutation(async ({ ctx, input }) => deletedAnswer(input.key, await deleteKey({ store: ctx.store, key: input.key })));
