import type { Logger } from '../logger.js';
import type { ConnectionCatalog } from '../stores/connection-catalog.js';

/** How long startup waits for the warm-up at most: a store that is down must not hold the service back. */
export const warmUpBudgetMs = 1000;

/**
 * At startup, before the service listens: the persisted queue indexes
 * loaded, then the first page of each environment connection's queue list,
 * answered in-process and thrown away. The first list a user asks for after a restart then finds the code
 * compiled (V8, zod's parsers), the figures script loaded and the store
 * connected, and the reconciling scan of the index already started; it cost
 * 2-3× a warm list before. Bounded by `budgetMs`; failures are only logged.
 */
export async function warmUpQueueLists({
  connections,
  preload,
  listFirstPage,
  logger,
  budgetMs = warmUpBudgetMs,
}: {
  connections: ConnectionCatalog;
  /** Reads the persisted indexes and connects the stores (preloadQueueIndex): past the budget it goes on in the background. */
  preload: () => Promise<void>;
  listFirstPage: (connectionId: string) => Promise<unknown>;
  logger: Logger;
  budgetMs?: number;
}): Promise<void> {
  const warm = preload().then(() =>
    Promise.all(
      (connections.environmentConnections?.() ?? []).map((connection) =>
        listFirstPage(connection.id).catch((error: Error) =>
          logger.debug({ connectionId: connection.id, reason: error.message }, 'queue list warm-up failed'),
        ),
      ),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs).unref()));
  await Promise.race([warm, budget]);
  clearTimeout(timer);
}
