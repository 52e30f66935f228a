import { allQueuesUpTo, maxMetricsPage, type ConnectionMetrics, type QueueSummary } from '../../contracts/metrics.js';
import { pageInfoFor, pageRange, type PageQuery } from '../../contracts/pagination.js';
import type { ConnectionTotals } from '../../server/bullmq/connection-totals.js';
import { pagedSummaries } from './paged-summaries.js';
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
  /** `limit`/`cursor` of the query: `queues` is then one page. */
  page?: { limit?: number | undefined; cursor?: string | undefined } | undefined;
}

/** The page asked for, or the first of maxMetricsPage when there are more than `allUpTo` queues; undefined: every queue. */
function pageAsked(options: ConnectionMetricsOptions, queueCount: number, allUpTo: number): PageQuery | undefined {
  const { limit, cursor } = options.page ?? {};
  if (limit !== undefined || cursor !== undefined) return { limit: limit ?? maxMetricsPage, cursor };
  return queueCount > allUpTo ? { limit: maxMetricsPage } : undefined;
}

/**
 * A summary of the connection's queues (names from the queue index, counts
 * and rates by a few script calls) and store facts; with `detailed`, each
 * queue's full native payload too. Every queue up to `allUpTo`; beyond, or
 * when a page is asked, one page of them, with every queue's totals from
 * the tracked counts (pagedSummaries): the cost of a page, not of the store.
 */
export async function getConnectionMetrics({
  store,
  directory,
  totals: totalsCache,
  options,
  allUpTo = allQueuesUpTo,
}: {
  store: StoreHandle;
  directory: QueueDirectory;
  totals: ConnectionTotals;
  options: ConnectionMetricsOptions;
  allUpTo?: number;
}): Promise<ConnectionMetrics> {
  const windowMinutes = options.windowMinutes ?? defaultWindowMinutes;
  const warnings: string[] = [];
  const all = await directory.list(store);
  const page = pageAsked(options, all.length, allUpTo);
  const { start, end } = page ? pageRange(page) : { start: 0, end: all.length - 1 };
  const queues = page ? all.slice(start, end + 1) : all;
  const [summarized, facts, detailed] = await Promise.all([
    page
      ? pagedSummaries(store, all, start, queues, windowMinutes, totalsCache)
      : store.metricsSummaries(all, windowMinutes).then((summaries) => ({ summaries, totals: sumOf(summaries) })),
    store.storeFacts(warnings),
    options.detailed ? detailedMetrics(store, queues, options, warnings) : undefined,
  ]);
  return {
    connectionId: store.connection.id,
    windowMinutes,
    queueCount: all.length,
    totals: summarized.totals,
    queues: summarized.summaries,
    ...(page ? pageInfoFor(all.length, page) : {}),
    store: facts,
    ...(detailed ? { detailed } : {}),
    warnings,
  };
}

function sumOf(summaries: QueueSummary[]): ConnectionMetrics['totals'] {
  const totals = { active: 0, completed: 0, delayed: 0, failed: 0, prioritized: 0, waiting: 0, 'waiting-children': 0 };
  for (const { counts } of summaries) for (const state of jobStates) totals[state] += counts[state];
  return totals;
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
