import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { openPersistence, type Persistence } from './persistence/persistence.js';
import { envConnectionCatalog, type ConnectionCatalog } from './stores/connection-catalog.js';
import { StoreRegistry } from './stores/store-registry.js';

/**
 * The long-lived parts of the service, built once at startup and handed to
 * every request through the tRPC context. Tests build their own.
 */
export interface Services {
  config: Config;
  logger: Logger;
  persistence: Persistence;
  connections: ConnectionCatalog;
  stores: StoreRegistry;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const persistence = await openPersistence(config, logger);
  const connections = envConnectionCatalog(config.envConnections ? config.environmentConnections : []);
  const stores = new StoreRegistry({ logger });
  return { config, logger, persistence, connections, stores };
}

export async function closeServices(services: Services): Promise<void> {
  await services.stores.closeAll();
  await services.persistence.close();
}
