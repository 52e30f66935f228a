import { keyValueSchema, readKeyInput } from '../../contracts/store-keys.js';
import { readKeyValue } from '../../domain/store-keys/read-key-value.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const readKey = connectionProcedure
  .meta({
    permission: 'keys.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/store-keys/value/{key}',
      tags: ['store-keys'],
      summary: "A key's value, read by type, paged and capped in bytes",
      errorResponses: { 400: 'Invalid query parameter', 404: 'No such connection or key', 503: 'The store is unavailable' },
    },
  })
  .input(readKeyInput)
  .output(keyValueSchema)
  .query(({ ctx, input }) => readKeyValue({ store: ctx.store, ...input }));
