import type { QueueMetrics } from '../../contracts/metrics.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { collectQueueMetrics, type QueueMetricsOptions } from './collect-queue-metrics.js';

/** Native telemetry of one queue, with its workers from the connection's CLIENT LIST. */
export async function getQueueMetrics({
  store,
  ref,
  options,
}: {
  store: StoreHandle;
  ref: QueueRef;
  options: QueueMetricsOptions;
}): Promise<QueueMetrics> {
  const warnings: string[] = [];
  const workerClients = await store.workerClients(warnings);
  return collectQueueMetrics(store, ref, options, workerClients, warnings);
}
