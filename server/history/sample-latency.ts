import { callGroups } from '../bullmq/queue-figures.js';
import { queueKey, type QueueRef } from '../bullmq/queue-key.js';
import type { StoreClient } from '../stores/redis-client.js';
import { latencyScript } from './latency-script.js';

/**
 * Jobs measured per queue and sample: the newest finished since the previous sample. Percentiles are
 * exact when no more finished in the interval, otherwise those of the newest 100 (a p99 of 100 jobs is
 * their slowest). Bounds a sample's cost: at most 100 hash reads per queue that finished anything.
 */
export const latencyJobsPerQueue = 100;
/** Queues per script call: at most 5,000 hash reads, a few milliseconds of the store's time. */
const queuesPerCall = 50;

/** p50, p95, p99 in milliseconds. */
export type Percentiles = [number, number, number];

export interface QueueLatency {
  /** Finished jobs whose processing time was measured. */
  jobs: number;
  processingMs: Percentiles | null;
  waitMs: Percentiles | null;
}

const percentiles = (count: number, values: number[]): Percentiles | null => (count > 0 ? [values[0]!, values[1]!, values[2]!] : null);

/** Latency of each queue of `refs` (in order) over the jobs it finished after `since`; read only for queues that finished some. */
export async function readLatencies(client: StoreClient, refs: readonly QueueRef[], since: number): Promise<QueueLatency[]> {
  const latencies = new Array<QueueLatency>(refs.length);
  await Promise.all(
    callGroups(client, refs, queuesPerCall).map(async (indexes) => {
      const keys = indexes.map((index) => queueKey(refs[index]!, 'meta'));
      const reply = await latencyScript.runForBuffer(client, keys, [Math.floor(since), latencyJobsPerQueue]);
      indexes.forEach((refIndex, i) => {
        const row = Array.from({ length: 8 }, (_, k) => reply.readDoubleLE(8 * (8 * i + k)));
        latencies[refIndex] = { jobs: row[0]!, processingMs: percentiles(row[0]!, row.slice(1, 4)), waitMs: percentiles(row[4]!, row.slice(5, 8)) };
      });
    }),
  );
  return latencies;
}
