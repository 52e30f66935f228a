import { insightListLength, maxInsightJobsPerSet, type QueueInsights } from '../../contracts/history-insights.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { FinishedJob } from '../../server/bullmq/read-finished-jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';

const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Nearest-rank p50/p95/p99 of the values, or null when there are none. */
function percentiles(values: number[]): { p50: number; p95: number; p99: number } | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(1, Math.ceil((p * sorted.length) / 100)) - 1]!;
  return { p50: rank(50), p95: rank(95), p99: rank(99) };
}

function topFailingNames(jobs: FinishedJob[]): QueueInsights['topFailingNames'] {
  const byName = new Map<string, { failed: number; completed: number }>();
  for (const job of jobs) {
    const counts = byName.get(job.name) ?? { failed: 0, completed: 0 };
    counts[job.state] += 1;
    byName.set(job.name, counts);
  }
  return [...byName]
    .filter(([, counts]) => counts.failed > 0)
    .sort(([a, x], [b, y]) => y.failed - x.failed || a.localeCompare(b))
    .slice(0, insightListLength)
    .map(([name, counts]) => ({ name, ...counts, failureRate: counts.failed / (counts.failed + counts.completed) }));
}

/**
 * What a queue's recent past says beyond the history's counts: the job names that failed most and the
 * jobs that ran longest in the window, with processing and wait percentiles. Reads the newest
 * `maxInsightJobsPerSet` jobs of the completed and failed sets (both scored by finish time) in the
 * window (on Redis one range read each and pipelined HMGETs of four fields; on PostgreSQL one indexed
 * statement each): bounded whatever the window holds.
 */
export async function readInsights(
  store: Pick<StoreHandle, 'finishedJobs'>,
  ref: QueueRef,
  window: string,
  now = Date.now(),
): Promise<QueueInsights> {
  const from = now - Number(window.slice(0, -1)) * unitMs[window.slice(-1) as keyof typeof unitMs];
  const [completed, failed] = await Promise.all([
    store.finishedJobs(ref, 'completed', from, maxInsightJobsPerSet),
    store.finishedJobs(ref, 'failed', from, maxInsightJobsPerSet),
  ]);
  const jobs = [...completed.jobs, ...failed.jobs];
  const measured = jobs.filter((job): job is FinishedJob & { processingMs: number } => job.processingMs !== null);
  return {
    queueName: ref.name,
    prefix: ref.prefix,
    from: new Date(from).toISOString(),
    to: new Date(now).toISOString(),
    completed: { inWindow: completed.inWindow, examined: completed.jobs.length },
    failed: { inWindow: failed.inWindow, examined: failed.jobs.length },
    exact: completed.inWindow <= maxInsightJobsPerSet && failed.inWindow <= maxInsightJobsPerSet,
    topFailingNames: topFailingNames(jobs),
    slowestJobs: measured
      .sort((a, b) => b.processingMs - a.processingMs || b.finishedOn - a.finishedOn)
      .slice(0, insightListLength)
      .map(({ id, name, state, processingMs, waitMs, finishedOn }) => ({
        id,
        name,
        state,
        processingMs,
        waitMs,
        finishedOn,
      })),
    processingMs: percentiles(measured.map((job) => job.processingMs)),
    waitMs: percentiles(jobs.flatMap((job) => (job.waitMs === null ? [] : [job.waitMs]))),
  };
}
