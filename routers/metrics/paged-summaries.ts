import type { ConnectionMetrics, QueueSummary } from '../../contracts/metrics.js';
import type { JobCounts } from '../../contracts/queues.js';
import type { ConnectionTotals } from '../../server/bullmq/connection-totals.js';
import { countKindOfState } from '../../server/bullmq/export-counts.js';
import { jobStates } from '../../server/bullmq/metrics-summaries.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';

type SummaryTotals = ConnectionMetrics['totals'];

/** The list's eight counts as the summary's seven states (BullMQ's names). */
function summaryTotals(counts: JobCounts): SummaryTotals {
  const totals = {} as SummaryTotals;
  for (const state of jobStates) totals[state] = counts[countKindOfState[state]];
  return totals;
}

/** Every queue's counts summed by script, or served from the queue list's totals of the last window (and kept for it). */
async function countedTotals(store: StoreHandle, all: QueueRef[], cache: ConnectionTotals): Promise<JobCounts> {
  const recount = async () => (await store.selectQueues(all, { totals: true })).totals!;
  const fresh = cache.fresh(store, recount);
  if (fresh) return fresh.totals;
  const countedAt = cache.startCount();
  const totals = await recount();
  cache.counted(store, { totals, countedAt });
  return totals;
}

/**
 * The summaries of one page of the connection's queues (`all[start…]`), and
 * the totals of every queue: from the store's tracked counts (exact, reading
 * only what changed, so the page costs its own queues, not the store's),
 * else counted as the queue list counts them. The tracker is asked of every
 * queue, never of the page: a list of its own would replace its view of all.
 */
export async function pagedSummaries(
  store: StoreHandle,
  all: QueueRef[],
  start: number,
  pageRefs: QueueRef[],
  windowMinutes: number,
  cache: ConnectionTotals,
): Promise<{ summaries: QueueSummary[]; totals: SummaryTotals }> {
  const tracked = await store.counts.totals(all);
  if (tracked) {
    const rows = tracked.rows.slice(start, start + pageRefs.length);
    return {
      summaries: await store.metricsSummaries(pageRefs, windowMinutes, rows),
      totals: summaryTotals(tracked.totals),
    };
  }
  const [summaries, counts] = await Promise.all([
    store.metricsSummaries(pageRefs, windowMinutes, false),
    countedTotals(store, all, cache),
  ]);
  return { summaries, totals: summaryTotals(counts) };
}
