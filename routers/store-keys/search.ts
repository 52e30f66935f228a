import { searchKeysInput, searchKeysResultSchema } from '../../contracts/store-keys.js';
import { defaultKeysPerPage, searchKeys } from './search-keys.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const searchProcedure = connectionProcedure
  .meta({
    permission: 'keys.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/store-keys/search',
      tags: ['store-keys'],
      summary: 'Search keys with SCAN (cursor-paged, bounded work per request)',
    },
  })
  .input(searchKeysInput)
  .output(searchKeysResultSchema)
  .query(({ ctx, input: { limit, count, ...input } }) =>
    searchKeys({ store: ctx.store, ...input, count: limit ?? count ?? defaultKeysPerPage }),
  );
