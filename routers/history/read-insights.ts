import { insightListLength, maxInsightJobsPerSet, type QueueInsights } from '../../contracts/history-insights.js';
import { queueKey, type QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreClient } from '../../server/stores/redis-client.js';

const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Job hashes read per pipeline. */
const jobsPerPipeline = 500;

interface FinishedJob {
  id: string;
  name: string;
  state: 'completed' | 'failed';
  processingMs: number | null;
  waitMs: number | null;
  finishedOn: number;
}

/** The set's jobs that finished at or after `from`: how many, and the newest `maxInsightJobsPerSet` of them read (name and times). */
async function readFinished(
  client: StoreClient,
  ref: QueueRef,
  state: 'completed' | 'failed',
  from: number,
): Promise<{ inWindow: number; jobs: FinishedJob[] }> {
  const key = queueKey(ref, state);
  const [inWindow, flat] = await Promise.all([
    client.zcount(key, from, '+inf'),
    client.zrevrangebyscore(key, '+inf', from, 'WITHSCORES', 'LIMIT', 0, maxInsightJobsPerSet),
  ]);
  const entries = Array.from({ length: flat.length / 2 }, (_, at) => ({
    id: flat[2 * at]!,
    score: Number(flat[2 * at + 1]),
  }));
  const jobs: FinishedJob[] = [];
  for (let start = 0; start < entries.length; start += jobsPerPipeline) {
    const chunk = entries.slice(start, start + jobsPerPipeline);
    const pipeline = client.pipeline();
    for (const entry of chunk)
      pipeline.hmget(queueKey(ref, entry.id), 'name', 'timestamp', 'processedOn', 'finishedOn');
    const replies = (await pipeline.exec()) ?? [];
    chunk.forEach((entry, at) => {
      const [error, fields] = replies[at] ?? [null, null];
      if (error) throw error;
      const [name, added, started, finished] = fields as Array<string | null>;
      // Removed since the range read: left out.
      if (name === null && finished === null) return;
      const startedAt = started === null ? null : Number(started);
      const finishedOn = finished === null ? entry.score : Number(finished);
      jobs.push({
        id: entry.id,
        name: name ?? '',
        state,
        finishedOn,
        processingMs: startedAt !== null && finishedOn >= startedAt ? finishedOn - startedAt : null,
        waitMs: startedAt !== null && added !== null && startedAt >= Number(added) ? startedAt - Number(added) : null,
      });
    });
  }
  return { inWindow, jobs };
}

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
 * window, one range read each and pipelined HMGETs of four fields: bounded whatever the window holds.
 */
export async function readInsights(
  client: StoreClient,
  ref: QueueRef,
  window: string,
  now = Date.now(),
): Promise<QueueInsights> {
  const from = now - Number(window.slice(0, -1)) * unitMs[window.slice(-1) as keyof typeof unitMs];
  const [completed, failed] = await Promise.all([
    readFinished(client, ref, 'completed', from),
    readFinished(client, ref, 'failed', from),
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
