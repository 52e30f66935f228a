import { searchKeysInput, searchKeysResultSchema } from '../../contracts/store-keys.js';
import { searchKeys as searchStoreKeys } from '../../domain/store-keys/search-keys.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const searchKeys = connectionProcedure
  .meta({
    permission: 'keys.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/store-keys/search',
      tags: ['store-keys'],
      summary: 'Search keys with SCAN (cursor-paged, bounded work per request)',
      errorResponses: { 400: 'Invalid query parameter', 404: 'No such connection', 503: 'The store is unavailable' },
    },
  })
  .input(searchKeysInput)
  .output(searchKeysResultSchema)
  .query(({ ctx, input }) => searchStoreKeys({ store: ctx.store, ...input }));
