import { listQueueNames } from '../../domain/stores/list-queue-names.js';
import type { QueueDirectory } from '../../domain/queues/queue-directory.js';
import { compareRefs, type QueueRef } from '../../domain/stores/queue-key.js';
import type { StoreHandle } from '../stores/store-handle.js';
import { LruCache } from '../stores/lru-cache.js';

interface Entry {
  /** The connection record version the names were found with. */
  version: number;
  scannedAt: number;
  names: Promise<QueueRef[]>;
  refreshing: boolean;
  /** Queues the service created since the scan; kept across a background rescan that began before. */
  remembered: QueueRef[];
}

export interface CachedQueueDirectoryOptions {
  /** Names younger than this are served as they are; 0 disables the cache. */
  ttlMs: number;
  /** For this long after `ttlMs`, the old names are served while a rescan runs in the background. */
  staleMs?: number;
  /** Connections whose names are kept at once. */
  capacity?: number;
  now?: () => number;
  discover?: (store: StoreHandle) => Promise<QueueRef[]>;
}

/**
 * Discovery scans the whole keyspace (about a second per million keys), so
 * each connection's queue names are reused for `ttlMs`, and for `staleMs`
 * more while a background rescan refreshes them: only the first list, or one
 * after a long quiet spell, waits for a scan. Concurrent lists share one
 * scan. Queues created by others appear within about `ttlMs`; the service's
 * own obliterate and delete call `forget`, so their removal shows at once.
 */
export class CachedQueueDirectory implements QueueDirectory {
  private readonly entries: LruCache<string, Entry>;
  private readonly now: () => number;
  private readonly discover: (store: StoreHandle) => Promise<QueueRef[]>;
  private readonly staleMs: number;

  constructor(private readonly options: CachedQueueDirectoryOptions) {
    this.entries = new LruCache(options.capacity ?? 1000);
    this.now = options.now ?? Date.now;
    this.discover = options.discover ?? listQueueNames;
    this.staleMs = options.staleMs ?? 60_000;
  }

  list(store: StoreHandle): Promise<QueueRef[]> {
    if (this.options.ttlMs === 0) return this.discover(store);
    const entry = this.entries.get(store.connection.id);
    if (!entry || entry.version !== store.connection.updatedAt.getTime()) return this.scan(store);
    const age = this.now() - entry.scannedAt;
    if (age < this.options.ttlMs) return entry.names;
    if (age >= this.options.ttlMs + this.staleMs) return this.scan(store);
    if (!entry.refreshing) this.refreshInBackground(store, entry);
    return entry.names;
  }

  forget(connectionId: string): void {
    this.entries.delete(connectionId);
  }

  remember(connectionId: string, ref: QueueRef): void {
    const entry = this.entries.get(connectionId);
    if (!entry) return;
    entry.remembered.push(ref);
    entry.names = entry.names.then((names) => withRef(names, ref));
  }

  private scan(store: StoreHandle): Promise<QueueRef[]> {
    const id = store.connection.id;
    const entry: Entry = { version: store.connection.updatedAt.getTime(), scannedAt: this.now(), names: this.discover(store), refreshing: false, remembered: [] };
    this.entries.set(id, entry);
    // A failed scan is not remembered: the next request tries again.
    entry.names.catch(() => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    });
    return entry.names;
  }

  private refreshInBackground(store: StoreHandle, entry: Entry): void {
    const id = store.connection.id;
    entry.refreshing = true;
    const startedAt = this.now();
    this.discover(store).then(
      (names) => {
        // Replace only the entry this refresh started from: a forget in between wins.
        if (this.entries.get(id) !== entry) return;
        const known = entry.remembered.reduce(withRef, names);
        this.entries.set(id, { ...entry, scannedAt: startedAt, names: Promise.resolve(known), refreshing: false, remembered: [] });
      },
      () => {
        entry.refreshing = false;
      },
    );
  }
}

/** The sorted list with `ref` in its place (the same list when it is there already). */
function withRef(names: QueueRef[], ref: QueueRef): QueueRef[] {
  const index = names.findIndex((known) => compareRefs(known, ref) >= 0);
  if (index >= 0 && compareRefs(names[index]!, ref) === 0) return names;
  const at = index < 0 ? names.length : index;
  return [...names.slice(0, at), ref, ...names.slice(at)];
}
