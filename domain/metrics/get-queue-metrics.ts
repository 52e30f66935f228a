import type { QueueMetrics } from '../../contracts/metrics.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { findQueue } from '../stores/find-queue.js';
import { listWorkerClients } from '../workers/client-list.js';
import { collectQueueMetrics, type QueueMetricsOptions } from './queue-metrics.js';

/** Native telemetry of one queue; 404 when the queue does not exist. */
export async function getQueueMetrics({
  store,
  queueName,
  prefix,
  options,
}: {
  store: StoreHandle;
  queueName: string;
  prefix?: string | undefined;
  options: QueueMetricsOptions;
}): Promise<QueueMetrics> {
  const ref = await findQueue(store, queueName, prefix);
  const warnings: string[] = [];
  const workerClients = await listWorkerClients(store, warnings);
  return collectQueueMetrics(store, ref, options, workerClients, warnings);
}
