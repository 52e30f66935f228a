import type { JobType, Queue } from 'bullmq';
import type { JobStatus } from '../../contracts/jobs.js';
import type { StoreClient } from '../../server/stores/redis-client.js';

/** BullMQ's key name for each status: `waiting` is the `wait` list; `paused` is the legacy paused list. */
const keyByStatus: Record<JobStatus, string> = {
  waiting: 'wait',
  active: 'active',
  delayed: 'delayed',
  completed: 'completed',
  failed: 'failed',
  paused: 'paused',
  prioritized: 'prioritized',
  waitingChildren: 'waiting-children',
};

/** Statuses held in Redis lists (newest at the head); the others are sorted sets. */
const listStatuses = new Set<JobStatus>(['waiting', 'active', 'paused']);

/** Where a status's ids live: its key suffix and whether that key is a list. */
export function statusKey(status: JobStatus): { suffix: string; isList: boolean } {
  return { suffix: keyByStatus[status], isList: listStatuses.has(status) };
}

/** BullMQ 6 no longer names `paused` in its types, but its count script still reads that key. */
export function bullmqType(status: JobStatus): JobType {
  return keyByStatus[status] as JobType;
}

export function countJobs(queue: Queue, status: JobStatus): Promise<number> {
  return queue.getJobCountByTypes(bullmqType(status));
}

/**
 * Ids at zero-based positions [start, end] of a status, newest first (BullMQ's
 * descending order) or oldest first. One range command: the cost is the
 * page's, whatever the size of the status.
 */
export async function jobIdsInRange(
  queue: Queue,
  status: JobStatus,
  start: number,
  end: number,
  oldestFirst: boolean,
): Promise<string[]> {
  const client = await queue.backend.client;
  const key = queue.toKey(keyByStatus[status]);
  if (listStatuses.has(status)) {
    if (!oldestFirst) return client.lrange(key, start, end);
    return (await client.lrange(key, -(end + 1), -(start + 1))).reverse();
  }
  return oldestFirst ? client.zrange(key, start, end) : client.zrevrange(key, start, end);
}

/**
 * The zero-based position of a job id in a status, newest first; null when it is not there.
 * Through the store's own client: BullMQ's client interface has no ZREVRANK.
 */
export async function positionInStatus(
  client: StoreClient,
  queue: Queue,
  status: JobStatus,
  jobId: string,
): Promise<number | null> {
  const key = queue.toKey(keyByStatus[status]);
  return listStatuses.has(status) ? client.lpos(key, jobId) : client.zrevrank(key, jobId);
}
