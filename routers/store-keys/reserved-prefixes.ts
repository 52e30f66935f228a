import type { StoreHandle } from '../../server/stores/store-handle.js';

/** Prefixes of keys the queue library owns: `bull:`, `bullmq:` and every prefix of the connection. */
export function reservedPrefixes(store: StoreHandle): string[] {
  return [...new Set(['bull', 'bullmq', ...store.prefixes])].map((prefix) => `${prefix}:`);
}

export function isReservedKey(key: string, prefixes: string[]): boolean {
  return prefixes.some((prefix) => key.startsWith(prefix));
}
