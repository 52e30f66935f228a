import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../../contracts/app-error.js';
import { isReservedKey, reservedPrefixes } from './reserved-prefixes.js';

/**
 * Deletes one key, unless the queue library owns it: those are refused with
 * 403 RESERVED_KEY and left untouched. 404 when the key does not exist.
 */
export async function deleteKey({ store, key }: { store: StoreHandle; key: string }) {
  const reserved = reservedPrefixes(store);
  if (isReservedKey(key, reserved)) {
    throw new AppError(
      'RESERVED_KEY',
      `Key ${key} is under a reserved queue prefix (${reserved.join(', ')}); such keys are managed through queue and job operations`,
      { key },
    );
  }
  if ((await store.keyValue().del(key)) === 0) throw new AppError('NOT_FOUND', `Key ${key} was not found`, { key });
  return { deleted: true as const, key };
}
