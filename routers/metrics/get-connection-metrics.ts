import type { ConnectionMetrics } from '../../contracts/metrics.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from '../../server/bullmq/list-queue-names.js';
import type { QueueDirectory } from '../../server/bullmq/queue-directory.js';
import { metricsRange } from './metrics-range.js';
import { collectQueueMetrics } from './collect-queue-metrics.js';
import { jobStates } from '../../server/bullmq/metrics-summaries.js';

export const defaultWindowMinutes = 60;

export interface ConnectionMetricsOptions {
  windowMinutes?: number | undefined;
  priorities: number[];
  includePrometheus: boolean;
  detailed: boolean;
}

/**
 * A summary of every queue of the connection (names from the queue index,
 * counts and rates by a few script calls) and store facts; with `detailed`, each queue's full native payload too.
 */
export async function getConnectionMetrics({
  store,
  directory,
  options,
}: {
  store: StoreHandle;
  directory: QueueDirectory;
  options: ConnectionMetricsOptions;
}): Promise<ConnectionMetrics> {
  const windowMinutes = options.windowMinutes ?? defaultWindowMinutes;
  const warnings: string[] = [];
  const queues = await directory.list(store);
  const [summaries, facts, detailed] = await Promise.all([
    store.metricsSummaries(queues, windowMinutes),
    store.storeFacts(warnings),
    options.detailed ? detailedMetrics(store, queues, options, warnings) : undefined,
  ]);
  const totals = { active: 0, completed: 0, delayed: 0, failed: 0, prioritized: 0, waiting: 0, 'waiting-children': 0 };
  for (const { counts } of summaries) for (const state of jobStates) totals[state] += counts[state];
  return {
    connectionId: store.connection.id,
    windowMinutes,
    queueCount: queues.length,
    totals,
    queues: summaries,
    store: facts,
    ...(detailed ? { detailed } : {}),
    warnings,
  };
}

async function detailedMetrics(
  store: StoreHandle,
  queues: QueueRef[],
  options: ConnectionMetricsOptions,
  warnings: string[],
) {
  const clientListWarnings: string[] = [];
  const workerClients = await store.workerClients(clientListWarnings);
  warnings.push(...clientListWarnings);
  const range = metricsRange({ windowMinutes: options.windowMinutes });
  return Promise.all(
    queues.map((ref) =>
      collectQueueMetrics(
        store,
        ref,
        { range, priorities: options.priorities, includePrometheus: options.includePrometheus },
        workerClients,
        clientListWarnings,
      ),
    ),
  );
}
