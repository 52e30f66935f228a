import { queueKey, type QueueRef } from './queue-key.js';
import type { StoreClient } from '../stores/redis-client.js';

/** Job hashes read per pipeline. */
const jobsPerPipeline = 500;

/** A finished job as the history's insights read it: name and times, never data. */
export interface FinishedJob {
  id: string;
  name: string;
  state: 'completed' | 'failed';
  processingMs: number | null;
  waitMs: number | null;
  finishedOn: number;
}

/** How many jobs of a finished status finished at or after `from`, and the newest `limit` of them. */
export interface FinishedJobsRead {
  inWindow: number;
  jobs: FinishedJob[];
}

/** Processing and wait times from a job's three timestamps (null where one is missing or they disagree). */
export function finishedJob(
  id: string,
  name: string | null,
  state: FinishedJob['state'],
  times: { added: number | null; started: number | null; finished: number },
): FinishedJob {
  const { added, started, finished } = times;
  return {
    id,
    name: name ?? '',
    state,
    finishedOn: finished,
    processingMs: started !== null && finished >= started ? finished - started : null,
    waitMs: started !== null && added !== null && started >= added ? started - added : null,
  };
}

const numberOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

/**
 * On Redis: the status's sorted set (scored by finish time) counted from `from`, its newest `limit`
 * read by one range and pipelined HMGETs of four fields. A job removed meanwhile is left out.
 */
export async function readFinishedJobs(
  client: StoreClient,
  ref: QueueRef,
  state: FinishedJob['state'],
  from: number,
  limit: number,
): Promise<FinishedJobsRead> {
  const key = queueKey(ref, state);
  const [inWindow, flat] = await Promise.all([
    client.zcount(key, from, '+inf'),
    client.zrevrangebyscore(key, '+inf', from, 'WITHSCORES', 'LIMIT', 0, limit),
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
      const [name, added, started, finished] = fields as [string | null, string | null, string | null, string | null];
      if (name === null && finished === null) return;
      jobs.push(
        finishedJob(entry.id, name, state, {
          added: numberOrNull(added),
          started: numberOrNull(started),
          finished: finished === null ? entry.score : Number(finished),
        }),
      );
    });
  }
  return { inWindow, jobs };
}
