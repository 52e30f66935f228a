import { readLatestLatency } from './latest-latency.js';
import { streamPrometheus } from './stream-prometheus.js';
import { QueueLabelCache } from './queue-labels.js';
import { nameGlobMatcher } from './name-glob.js';
import { resolveActor } from '../../server/auth/resolve-actor.js';
import { plainRoute, type PlainCall } from '../../server/http/plain-route.js';
import type { Services } from '../../server/services.js';

/**
 * GET /api/prometheus: a plain express route, not a procedure, because the
 * REST adapter only answers JSON and Prometheus wants text. It is guarded by
 * the procedures' own functions (rate limit, identity, `metrics.read`), so
 * it is protected like the API unless SERVICE_METRICS_PUBLIC is true; then
 * an anonymous scrape sees the local organization's connections. The queue
 * families are streamed (stream-prometheus.ts); SERVICE_METRICS_QUEUES
 * limits the queues.
 */
export function prometheusRoute(services: Services) {
  const include = nameGlobMatcher(services.config.metrics.queues);
  // The queues' label text, encoded once per list of queues (queue-labels.ts), not on every scrape.
  const labelCache = new QueueLabelCache();
  return plainRoute(services, 'prometheus', async (call) => {
    const organizationId = await scrapingOrganization(services, call);
    const connections = await services.connections.list(organizationId);
    const stores = connections.map((connection) => services.stores.handle(connection));
    call.res.status(200).type(services.httpMetrics.registry.contentType);
    try {
      // Three sample intervals: one late sample is not yet stale.
      const latency = (store: { connection: { id: string } }) =>
        readLatestLatency(
          services.persistence.fork(),
          store.connection.id,
          3 * services.config.history.sampleIntervalMs,
        );
      await streamPrometheus(call.res, stores, services.queueDirectory, include, latency, labelCache);
      call.res.end(await services.httpMetrics.text());
    } catch (error) {
      if (!call.res.headersSent) throw error;
      // Once the exposition has begun, the status is sent: cut the response short (the scraper
      // sees a failed scrape) rather than end it as if it were complete.
      call.ctx.logger.error({ err: error, route: 'prometheus' }, 'prometheus scrape failed');
      call.res.destroy();
    }
  });
}

async function scrapingOrganization(services: Services, call: PlainCall): Promise<string> {
  if (!services.config.metrics.public) return (await call.requireActor('metrics.read')).organizationId;
  const actor = await resolveActor(call.ctx);
  return actor?.organizationId ?? services.persistence.localOrganizationId();
}
