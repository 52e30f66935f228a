import type { QueueDirectory } from '../bullmq/queue-directory.js';
import type { Logger } from '../logger.js';
import type { ConnectionCatalog } from '../stores/connection-catalog.js';
import type { StoreRegistry } from '../stores/store-registry.js';

/**
 * At startup, for each environment connection: connects its store client
 * (a PING) and reads its persisted queue index (no scan: the first list
 * starts the reconciling scan as before). The first queue list after a
 * restart then waits for neither the database nor a new connection. Saved
 * connections, possibly many and of many organizations, load on their first
 * request. Failures are only logged: the first list does the same work itself.
 */
export async function preloadQueueIndex({
  connections,
  stores,
  queueDirectory,
  logger,
}: {
  connections: ConnectionCatalog;
  stores: StoreRegistry;
  queueDirectory: QueueDirectory;
  logger: Logger;
}): Promise<void> {
  await Promise.all(
    (connections.environmentConnections?.() ?? []).map((connection) => {
      const store = stores.handle(connection);
      const failed = (what: string) => (error: Error) =>
        logger.debug({ connectionId: connection.id, reason: error.message }, `${what} at startup failed`);
      return Promise.all([
        store.warmUp().catch(failed('store connection')),
        queueDirectory.preload(store).catch(failed('queue index preload')),
      ]);
    }),
  );
}
