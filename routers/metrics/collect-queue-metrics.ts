import type { QueueMetrics } from '../../contracts/metrics.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { introspect } from '../../server/bullmq/introspection.js';
import type { QueueRef } from '../../server/bullmq/list-queue-names.js';
import type { WorkerClient } from '../../server/bullmq/client-list.js';
import type { MetricsRange } from './metrics-range.js';

export interface QueueMetricsOptions {
  range: MetricsRange;
  priorities: number[];
  includePrometheus: boolean;
}

/**
 * The queue library's own telemetry for one queue, every call made
 * concurrently. `workerClients` is the connection's CLIENT LIST, read once by
 * the caller (null when the store does not allow it).
 */
export async function collectQueueMetrics(
  store: StoreHandle,
  ref: QueueRef,
  options: QueueMetricsOptions,
  workerClients: WorkerClient[] | null,
  clientListWarnings: string[] = [],
): Promise<QueueMetrics> {
  const queue = await store.queue(ref.name, ref.prefix);
  const warnings = [...clientListWarnings];
  const { start, end } = options.range;
  const call = <T>(what: string, run: () => Promise<T>) => introspect(warnings, what, run);
  const [
    completed,
    failed,
    isMaxed,
    schedulers,
    counts,
    meta,
    ttlMs,
    globalConcurrency,
    globalRateLimit,
    priorityCounts,
    prometheus,
  ] = await Promise.all([
    call('completed metrics', () => queue.getMetrics('completed', start, end)),
    call('failed metrics', () => queue.getMetrics('failed', start, end)),
    call('isMaxed', () => queue.isMaxed()),
    call('scheduler count', () => queue.getJobSchedulersCount()),
    call('job counts', () => queue.getJobCounts()),
    call('queue meta', () => queue.getMeta()),
    call('rate-limit TTL', () => queue.getRateLimitTtl()),
    call('global concurrency', () => queue.getGlobalConcurrency()),
    call('global rate limit', () => queue.getGlobalRateLimit()),
    options.priorities.length > 0
      ? call('counts per priority', () => queue.getCountsPerPriority(options.priorities))
      : {},
    options.includePrometheus ? call('Prometheus export', () => queue.exportPrometheusMetrics()) : undefined,
  ]);
  return {
    queueName: ref.name,
    prefix: ref.prefix,
    range: options.range,
    completed,
    failed,
    state: {
      isPaused: meta?.paused ?? null,
      isMaxed,
      workers:
        workerClients?.filter((client) => client.prefix === ref.prefix && client.queueName === ref.name).length ?? null,
      schedulers,
    },
    counts,
    meta: meta && {
      concurrency: meta.concurrency ?? null,
      max: meta.max ?? null,
      duration: meta.duration ?? null,
      maxLenEvents: meta.maxLenEvents ?? null,
      paused: meta.paused ?? false,
      version: meta.version ?? null,
    },
    rateLimit: { ttlMs, globalConcurrency, globalRateLimit },
    priorityCounts: priorityCounts ?? {},
    ...(prometheus === undefined || prometheus === null ? {} : { prometheus }),
    warnings,
  };
}
