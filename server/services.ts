import { createAuthService, type AuthService } from './auth/auth-service.js';
import { scheduleAuditRetention } from './audit/audit-retention.js';
import type { Config } from './config.js';
import { QueueEventHub } from './events/queue-event-hub.js';
import { OpenStreams } from './http/open-streams.js';
import { BodyBudget } from './http/body-budget.js';
import type { QueueDirectory } from './bullmq/queue-directory.js';
import { ConnectionTotals } from './bullmq/connection-totals.js';
import type { Logger } from './logger.js';
import { HistorySampler } from './history/history-sampler.js';
import { HttpMetrics } from './observability/http-metrics.js';
import { QueueIndex, serviceReconcileDelayMs } from './discovery/queue-index.js';
import { databaseIndexStore } from './discovery/queue-index-store.js';
import { openPersistence, type Persistence } from './persistence/persistence.js';
import { connectionUrlCipher } from './secrets/connection-cipher.js';
import { missingKeyCipher, type UrlCipher } from './secrets/url-cipher.js';
import { createRateLimits, type RateLimits } from './rate-limit/rate-limits.js';
import { envConnectionCatalog, type ConnectionCatalog } from './stores/connection-catalog.js';
import { savedConnectionCatalog } from './stores/saved-connection-catalog.js';
import { StoreRegistry } from './stores/store-registry.js';
import { startupChores } from './startup-chores.js';
import { createTargetPolicy, type TargetPolicy } from './stores/target-policy.js';
import { TaskRunner } from './tasks/task-runner.js';

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
  /** The open SSE responses, which shutdown tells to reconnect elsewhere and closes. */
  streams: OpenStreams;
  /** Bytes of large response bodies held at once (SERVICE_MAX_RESPONSE_BYTES): big job reads wait their turn. */
  bodyBudget: BodyBudget;
  /** Large bodies being read and serialized at once (each costs several times its size for a moment). */
  bodyBuilds: BodyBudget;
  /** Encrypts saved connection URLs; fails with a clear error when no key is available. */
  urlCipher: UrlCipher;
  /** Encrypts other secrets at rest (alert destinations' URLs and signing secrets), in every mode. */
  secretCipher: UrlCipher;
  httpMetrics: HttpMetrics;
  auth: AuthService;
  rateLimits: RateLimits;
  /** Queue names per connection: the persisted queue index, reconciled by background scans. */
  queueDirectory: QueueDirectory;
  /** Connection-wide queue totals of the list, kept for SERVICE_QUEUE_LIST_CACHE_MS after a count. */
  queueTotals: ConnectionTotals;
  /** Which store addresses may be contacted (SERVICE_CONNECTION_ALLOW; link-local never unless listed). */
  targetPolicy: TargetPolicy;
  /** Which hosts alert webhooks may reach (SERVICE_WEBHOOK_ALLOW). */
  webhookPolicy: TargetPolicy;
  /** Records queue and store history; started by the entry (main), not by tests that do not need it. */
  history: HistorySampler;
  /** Runs background tasks (one replica per task); started by the entry, handlers given by the HTTP app. */
  tasks: TaskRunner;
  /** Stops the maintenance jobs (audit retention). */
  stopMaintenance(): void;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const persistence = await openPersistence(config, logger);
  // Alert destinations are sealed in either connection mode; saved connection URLs only when saved.
  const secretCipher = await connectionUrlCipher(config, logger);
  const urlCipher = config.envConnections ? missingKeyCipher : secretCipher;
  const connections = config.envConnections
    ? envConnectionCatalog(config.environmentConnections, () => persistence.localOrganizationId())
    : savedConnectionCatalog(persistence, urlCipher);
  const targetPolicy = createTargetPolicy(config.connectionAllow);
  const webhookPolicy = createTargetPolicy(config.webhookAllow, undefined, {
    variable: 'SERVICE_WEBHOOK_ALLOW',
    code: 'WEBHOOK_TARGET_FORBIDDEN',
  });
  const stores = new StoreRegistry({
    logger,
    policy: targetPolicy,
    trackCounts: config.queueTotalsTracking,
    countWindowMs: config.queueListCacheMs,
  });
  const events = new QueueEventHub(logger);
  const streams = new OpenStreams();
  const bodyBudget = new BodyBudget(config.http.maxResponseBytes);
  const bodyBuilds = new BodyBudget(1);
  const httpMetrics = new HttpMetrics();
  const auth = await createAuthService(config, logger, persistence);
  await startupChores({ config, logger, persistence, auth, secretCipher });
  if (config.rateLimit.disableRefused) {
    logger.warn('DISABLE_RATE_LIMIT is ignored in production (NODE_ENV=production): rate limits stay on');
  }
  if (config.rateLimit.enabled && config.persistence.mode === 'server' && !config.rateLimit.redisUrl) {
    logger.warn(
      'DATABASE_URL is set (several replicas possible) but RATE_LIMIT_REDIS_URL is not: rate limits, the per-account sign-in limit included, are counted per process',
    );
  }
  const rateLimits = createRateLimits(config.rateLimit, logger);
  const queueDirectory = new QueueIndex({
    ttlMs: config.queueListCacheMs,
    store: databaseIndexStore(persistence),
    logger,
    reconcileDelayMs: serviceReconcileDelayMs,
  });
  const queueTotals = new ConnectionTotals({ ttlMs: config.queueListCacheMs, logger });
  const history = new HistorySampler(
    { persistence, stores, connections, queueDirectory, logger, secretCipher, webhookPolicy },
    { intervalMs: config.history.sampleIntervalMs, retentionDays: config.history.retentionDays },
  );
  const tasks = new TaskRunner({ persistence, connections, stores, logger }, { leaseTtlMs: config.tasks.leaseTtlMs });
  const stopMaintenance = scheduleAuditRetention({ persistence, logger }, config.auditRetentionDays);
  return {
    config,
    logger,
    persistence,
    connections,
    stores,
    events,
    streams,
    bodyBudget,
    bodyBuilds,
    urlCipher,
    secretCipher,
    httpMetrics,
    auth,
    rateLimits,
    queueDirectory,
    queueTotals,
    history,
    tasks,
    targetPolicy,
    webhookPolicy,
    stopMaintenance,
  };
}

export async function closeServices(services: Services): Promise<void> {
  services.stopMaintenance();
  await services.tasks.stop();
  await services.history.stop();
  await services.events.closeAll();
  await services.stores.closeAll();
  await services.rateLimits.close();
  await services.queueDirectory.flush();
  await services.persistence.close();
}
