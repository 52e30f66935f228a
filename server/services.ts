import { createAuthService, type AuthService } from './auth/auth-service.js';
import type { Config } from './config.js';
import { QueueEventHub } from './events/queue-event-hub.js';
import type { QueueDirectory } from '../domain/queues/queue-directory.js';
import type { Logger } from './logger.js';
import { HttpMetrics } from './observability/http-metrics.js';
import { CachedQueueDirectory } from './queues/cached-queue-directory.js';
import { openPersistence, type Persistence } from './persistence/persistence.js';
import { connectionUrlCipher } from './secrets/connection-cipher.js';
import { missingKeyCipher, type UrlCipher } from './secrets/url-cipher.js';
import { createRateLimits, type RateLimits } from './rate-limit/rate-limits.js';
import { envConnectionCatalog, type ConnectionCatalog } from './stores/connection-catalog.js';
import { savedConnectionCatalog } from './stores/saved-connection-catalog.js';
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
  /** Live queue event feeds shared by SSE subscribers. */
  events: QueueEventHub;
  /** Encrypts saved connection URLs; fails with a clear error when no key is available. */
  urlCipher: UrlCipher;
  httpMetrics: HttpMetrics;
  auth: AuthService;
  rateLimits: RateLimits;
  /** Queue names per connection, discovered on the store and briefly cached. */
  queueDirectory: QueueDirectory;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const persistence = await openPersistence(config, logger);
  const urlCipher = config.envConnections ? missingKeyCipher : await connectionUrlCipher(config, logger);
  const connections = config.envConnections
    ? envConnectionCatalog(config.environmentConnections)
    : savedConnectionCatalog(persistence, urlCipher);
  const stores = new StoreRegistry({ logger });
  const events = new QueueEventHub(logger);
  const httpMetrics = new HttpMetrics();
  const auth = await createAuthService(config, logger, persistence);
  if (config.rateLimit.disableRefused) {
    logger.warn('DISABLE_RATE_LIMIT is ignored in production (NODE_ENV=production): rate limits stay on');
  }
  const rateLimits = createRateLimits(config.rateLimit, logger);
  const queueDirectory = new CachedQueueDirectory({ ttlMs: config.queueListCacheMs });
  return { config, logger, persistence, connections, stores, events, urlCipher, httpMetrics, auth, rateLimits, queueDirectory };
}

export async function closeServices(services: Services): Promise<void> {
  await services.events.closeAll();
  await services.stores.closeAll();
  await services.rateLimits.close();
  await services.persistence.close();
}
