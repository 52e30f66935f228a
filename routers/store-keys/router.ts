import { router } from '../../server/trpc/init.js';
import { deleteKey } from './delete-key.js';
import { readKey } from './read-key.js';
import { searchKeys } from './search-keys.js';

export const storeKeysRouter = router({ search: searchKeys, read: readKey, delete: deleteKey });
