import type { Queue } from 'bullmq';
import type { JobStatus } from '../../contracts/jobs.js';
import type { StoreClient } from '../stores/redis-client.js';
import { keyByStatus, listStatuses } from './status-keys.js';

/**
 * The reads a job search makes (routers/jobs/search/scan-matches.ts), on
 * Redis: a chunk of a status's ids, newest first, and some hash fields of
 * each. The PostgreSQL forms are server/postgres/postgres-search.ts.
 */

/** Where a chunk starts: right after `anchor` (the last job examined that stayed) while it is there, else at `offset`. */
export interface ChunkFrom {
  offset: number;
  anchor?: string | undefined;
}

/** A chunk's ids, the position of the first in its status, and whether the anchor had left it. */
export interface StatusChunk {
  start: number;
  ids: string[];
  anchorGone: boolean;
}

/** Each job's values of the fields asked, in order (HMGET's shape): null for a field it lacks, all null when it is gone. */
export type JobFieldValues = Array<Array<string | null>>;

/**
 * Ids at zero-based positions [start, end] of a status, newest first (BullMQ's
 * descending order). One range command: the cost is the chunk's, whatever the
 * size of the status.
 */
export function jobIdsInRange(
  client: StoreClient,
  queue: Queue,
  status: JobStatus,
  start: number,
  end: number,
): Promise<string[]> {
  const key = queue.toKey(keyByStatus[status]);
  return listStatuses.has(status) ? client.lrange(key, start, end) : client.zrevrange(key, start, end);
}

/** The zero-based position of a job id in a status, newest first; null when it is not there. */
export async function positionInStatus(
  client: StoreClient,
  queue: Queue,
  status: JobStatus,
  jobId: string,
): Promise<number | null> {
  const key = queue.toKey(keyByStatus[status]);
  return listStatuses.has(status) ? client.lpos(key, jobId) : client.zrevrank(key, jobId);
}

export async function redisStatusChunk(
  client: StoreClient,
  queue: Queue,
  status: JobStatus,
  from: ChunkFrom,
  size: number,
): Promise<StatusChunk> {
  const anchorAt = from.anchor === undefined ? null : await positionInStatus(client, queue, status, from.anchor);
  const start = anchorAt === null ? from.offset : anchorAt + 1;
  const ids = await jobIdsInRange(client, queue, status, start, start + size - 1);
  return { start, ids, anchorGone: from.anchor !== undefined && anchorAt === null };
}

/** One pipeline per chunk: a queue's keys share a hash slot, so this holds on a cluster too. */
export async function redisJobFields(
  client: StoreClient,
  queue: Queue,
  ids: readonly string[],
  fields: readonly string[],
): Promise<JobFieldValues> {
  const pipeline = client.pipeline();
  for (const id of ids) pipeline.hmget(queue.toKey(id), ...fields);
  const replies = (await pipeline.exec()) ?? [];
  return ids.map((_, index) => {
    const [error, values] = replies[index] ?? [null, []];
    if (error) throw error;
    return values as Array<string | null>;
  });
}
