import { Cluster } from 'ioredis';
import { hashTag } from '../bullmq/pipelined.js';
import { queueKey, type QueueRef } from '../bullmq/queue-key.js';
import type { StoreClient } from '../stores/redis-client.js';
import { latencyScript } from './latency-script.js';

/**
 * Jobs measured per queue and sample: the newest finished since the previous sample. Percentiles are
 * exact when no more finished in the interval, otherwise those of the newest 100 (a p99 of 100 jobs is
 * their slowest). Bounds a sample's cost: at most 100 hash reads per queue that finished anything.
 */
export const latencyJobsPerQueue = 100;
/**
 * Job hashes one script call reads at most (by the queues' finished counts): ~5 ms of the store's
 * time. Reading 200 busy queues' 100 jobs in one call held Redis for ~75 ms (measured); calls are sent
 * one after the other, so other clients' commands run between them.
 */
export const latencyJobsPerCall = 1000;

/** p50, p95, p99 in milliseconds. */
export type Percentiles = [number, number, number];

export interface QueueLatency {
  /** Finished jobs whose processing time was measured. */
  jobs: number;
  processingMs: Percentiles | null;
  waitMs: Percentiles | null;
}

export interface BusyQueue {
  ref: QueueRef;
  /** Jobs it finished since the previous sample (how many the call will read, up to the cap). */
  finished: number;
}

/** Indexes of `queues` per call: one hash tag each on a cluster (a script's keys share a slot), cut at `latencyJobsPerCall` reads. */
function callGroups(client: StoreClient, queues: readonly BusyQueue[]): number[][] {
  const groups: number[][] = [];
  const open = new Map<string, { indexes: number[]; jobs: number }>();
  queues.forEach((queue, index) => {
    const tag = client instanceof Cluster ? hashTag(queueKey(queue.ref, 'meta')) : '';
    const jobs = Math.min(latencyJobsPerQueue, queue.finished);
    let group = open.get(tag);
    if (group && group.jobs + jobs > latencyJobsPerCall) group = undefined;
    if (!group) {
      group = { indexes: [], jobs: 0 };
      open.set(tag, group);
      groups.push(group.indexes);
    }
    group.indexes.push(index);
    group.jobs += jobs;
  });
  return groups;
}

const percentiles = (count: number, values: number[]): Percentiles | null =>
  count > 0 ? [values[0]!, values[1]!, values[2]!] : null;

/** Latency of each busy queue (in order) over the jobs it finished after `since`. */
export async function readLatencies(
  client: StoreClient,
  queues: readonly BusyQueue[],
  since: number,
): Promise<QueueLatency[]> {
  const latencies = new Array<QueueLatency>(queues.length);
  for (const indexes of callGroups(client, queues)) {
    const keys = indexes.map((index) => queueKey(queues[index]!.ref, 'meta'));
    const reply = await latencyScript.runForBuffer(client, keys, [Math.floor(since), latencyJobsPerQueue]);
    indexes.forEach((queueIndex, i) => {
      const row = Array.from({ length: 8 }, (_, k) => reply.readDoubleLE(8 * (8 * i + k)));
      latencies[queueIndex] = {
        jobs: row[0]!,
        processingMs: percentiles(row[0]!, row.slice(1, 4)),
        waitMs: percentiles(row[4]!, row.slice(5, 8)),
      };
    });
  }
  return latencies;
}
