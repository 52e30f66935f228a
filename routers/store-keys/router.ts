import { router } from '../../server/trpc/init.js';
import { deleteProcedure } from './delete.js';
import { readProcedure } from './read.js';
import { searchProcedure } from './search.js';

export const storeKeysRouter = router({ search: searchProcedure, read: readProcedure, delete: deleteProcedure });
