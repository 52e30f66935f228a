import { AppError } from '../../contracts/app-error.js';
import type { Readiness } from '../../contracts/system.js';
import type { Persistence } from '../../server/persistence/persistence.js';
import type { ConnectionCatalog } from '../../server/stores/connection-catalog.js';
import type { StoreRegistry } from '../../server/stores/store-registry.js';

/** A store that has not answered PING by then counts as not answering. */
export const storePingDeadlineMs = 2000;

export interface ReadinessSources {
  persistence: Persistence;
  connections: ConnectionCatalog;
  stores: StoreRegistry;
}

async function pingStore(
  stores: StoreRegistry,
  connection: Parameters<StoreRegistry['handle']>[0],
): Promise<Readiness['checks']['stores'][number]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer to PING within ${storePingDeadlineMs} ms`)),
      storePingDeadlineMs,
    );
  });
  try {
    await Promise.race([stores.handle(connection).ping(), deadline]);
    return { connectionId: connection.id, ok: true };
  } catch (error) {
    return { connectionId: connection.id, ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ready when the database answers and so does every environment connection's store (saved
 * connections are the users' own: one of them being down does not make the service unready).
 * Otherwise a 503 whose message names what does not answer, with the same checks in the body.
 */
export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const envConnections = sources.connections.environmentConnections?.() ?? [];
  const [database, stores] = await Promise.all([
    sources.persistence.health(),
    Promise.all(envConnections.map((connection) => pingStore(sources.stores, connection))),
  ]);
  const checks = { database, stores };
  const failing = [
    ...(database.ok ? [] : [`the ${database.mode} database (${database.error ?? 'unavailable'})`]),
    ...stores
      .filter((store) => !store.ok)
      .map((store) => `the store of connection "${store.connectionId}" (${store.error})`),
  ];
  if (failing.length === 0) return { status: 'ready', checks };
  throw new AppError(
    database.ok ? 'STORE_UNAVAILABLE' : 'DATABASE_UNAVAILABLE',
    `Not ready: ${failing.join('; ')} does not answer`,
    { checks },
  );
}
