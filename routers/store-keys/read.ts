import { keyValueSchema, readKeyInput } from '../../contracts/store-keys.js';
import { readKeyValue } from './read-key-value.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const readProcedure = connectionProcedure
  .meta({
    permission: 'keys.read',
    differs: {
      pagination:
        'Pages through one value, as Redis reads it: lists, sorted sets and streams by `offset` (`nextOffset`), sets and hashes by a SCAN `cursor` (`nextCursor`), which is the cheap way through a big one.',
    },
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/store-keys/value/{key}',
      tags: ['store-keys'],
      summary: "A key's value, read by type, paged and capped in bytes",
    },
  })
  .input(readKeyInput)
  .output(keyValueSchema)
  .query(({ ctx, input }) => readKeyValue({ store: ctx.store, ...input }));
