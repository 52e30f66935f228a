import { discoverQueues } from '../../domain/queues/discover-queues.js';
import type { QueueDirectory } from '../../domain/queues/queue-directory.js';
import type { QueueRef } from '../../domain/queues/queue-keys.js';
import type { StoreHandle } from '../stores/store-handle.js';
import { LruCache } from '../stores/lru-cache.js';

interface Entry {
  /** The connection record version the names were found with. */
  version: number;
  expiresAt: number;
  names: Promise<QueueRef[]>;
}

export interface CachedQueueDirectoryOptions {
  ttlMs: number;
  /** Connections whose names are kept at once. */
  capacity?: number;
  now?: () => number;
  discover?: (store: StoreHandle) => Promise<QueueRef[]>;
}

/**
 * Discovery scans the whole keyspace, so each connection's queue names are
 * reused for `ttlMs` and concurrent lists share one scan in flight. Queues
 * created by others appear within `ttlMs`; the service's own obliterate and
 * delete call `forget` so their removal shows at once.
 */
export class CachedQueueDirectory implements QueueDirectory {
  private readonly entries: LruCache<string, Entry>;
  private readonly now: () => number;
  private readonly discover: (store: StoreHandle) => Promise<QueueRef[]>;

  constructor(private readonly options: CachedQueueDirectoryOptions) {
    this.entries = new LruCache(options.capacity ?? 1000);
    this.now = options.now ?? Date.now;
    this.discover = options.discover ?? discoverQueues;
  }

  list(store: StoreHandle): Promise<QueueRef[]> {
    const id = store.connection.id;
    const version = store.connection.updatedAt.getTime();
    const cached = this.entries.get(id);
    if (cached && cached.version === version && cached.expiresAt > this.now()) return cached.names;
    const names = this.discover(store);
    const entry: Entry = { version, expiresAt: this.now() + this.options.ttlMs, names };
    this.entries.set(id, entry);
    // A failed scan is not remembered: the next request tries again.
    names.catch(() => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    });
    return names;
  }

  forget(connectionId: string): void {
    this.entries.delete(connectionId);
  }
}
