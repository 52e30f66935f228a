import type { DiscoveryStatus } from '../../contracts/discovery.js';
import type { StoreHandle } from '../stores/store-handle.js';
import type { QueueRef } from './queue-key.js';

/** Where queue names come from: the service's queue index (server/discovery/queue-index.ts). */
export interface QueueDirectory {
  /** Every queue of the store, sorted by name then prefix. */
  list(store: StoreHandle): Promise<QueueRef[]>;
  /** Reads what is kept of a connection's queues (the persisted index) ahead of its first list, without scanning. */
  preload(store: StoreHandle): Promise<void>;
  /** Scans the store now (or joins the running scan); resolves when it is over. */
  rescan(store: StoreHandle): Promise<void>;
  /** When the index was last reconciled with the store, and whether it can miss queues. */
  status(store: StoreHandle): Promise<DiscoveryStatus>;
  /** Drops what is known in memory of a connection's queues (the database copy is read again). */
  forget(connectionId: string): void;
  /** Adds a queue the service just created (adding a job or a scheduler), without a rescan (the queue middleware calls it). */
  remember(connectionId: string, ref: QueueRef): void;
  /** Removes a queue the service just removed (obliterate, delete), without a rescan (the queue middleware calls it). */
  removed(connectionId: string, ref: QueueRef): void;
  /** Waits for pending writes of the persisted index (before the database closes). */
  flush(): Promise<void>;
}
