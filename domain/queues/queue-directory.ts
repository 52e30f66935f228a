import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from '../stores/queue-key.js';

/** Where queue names come from; the service's implementation caches them briefly per connection. */
export interface QueueDirectory {
  /** Every queue of the store, sorted by name then prefix. */
  list(store: StoreHandle): Promise<QueueRef[]>;
  /** Drops what is known of a connection's queues, after the service removed one. */
  forget(connectionId: string): void;
  /** Adds a queue the service may just have created (by adding a job), without a rescan. */
  remember(connectionId: string, ref: QueueRef): void;
}
