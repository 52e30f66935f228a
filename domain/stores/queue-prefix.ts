import { AppError } from '../errors.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';

/** The prefix a queue route acts under: the one asked for if the connection has it, else its default. */
export function resolveQueuePrefix(store: StoreHandle, prefix: string | undefined): string {
  if (prefix === undefined) return store.defaultPrefix;
  if (!store.prefixes.includes(prefix)) {
    throw new AppError('VALIDATION_FAILED', `prefix: "${prefix}" is not a prefix of this connection (${store.prefixes.join(', ')})`);
  }
  return prefix;
}
