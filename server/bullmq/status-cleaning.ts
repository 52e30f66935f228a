import type { Queue } from 'bullmq';
import type { JobCountKind, PurgeableStatus } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { cleanFinishedSet, cleanFinishedSetCount } from './clean-finished-set.js';
import { runPipelined } from './pipelined.js';
import type { QueueRef } from './queue-key.js';
import { countCommand } from './queue-states.js';

/** Removing and counting the jobs of one status (purge's batches): the part of the store seam purge needs. */
export interface StatusCleaning {
  /**
   * Removes up to `limit` jobs of `status`; their ids. Without `gracePeriod` none is kept by age (purge's
   * batches); with it, jobs younger than that many ms stay (the clean route, BullMQ's own clean).
   */
  cleanStatus(
    queue: Queue,
    ref: QueueRef,
    status: PurgeableStatus,
    limit: number,
    gracePeriod?: number,
  ): Promise<string[]>;
  /**
   * Removes up to `limit` jobs of `status` as `cleanStatus` without a grace period does; how many. For a
   * purge task, which records counts only: the ids are not sent back for the service to parse.
   */
  purgeCount(queue: Queue, ref: QueueRef, status: PurgeableStatus, limit: number): Promise<number>;
  countStatus(ref: QueueRef, status: JobCountKind): Promise<number>;
}

/**
 * On Redis: BullMQ 6's clean handles every status, `prioritized` and
 * `paused` included (its cleanJobsInSet script reads the matching key), so
 * each call is one `clean(0, limit, type)`: a status never loses another's
 * jobs. The finished sets go through `cleanFinishedSet`: the same removal, cheaper.
 */
export function redisStatusCleaning(client: StoreClient): StatusCleaning {
  return {
    cleanStatus: (queue, ref, status, limit, gracePeriod) =>
      gracePeriod === undefined && (status === 'completed' || status === 'failed')
        ? cleanFinishedSet(client, queue, ref, status, limit)
        : queue.clean(gracePeriod ?? 0, limit, status === 'waiting' ? 'wait' : status),
    purgeCount: async (queue, ref, status, limit) =>
      status === 'completed' || status === 'failed'
        ? cleanFinishedSetCount(client, queue, ref, status, limit)
        : (await queue.clean(0, limit, status === 'waiting' ? 'wait' : status)).length,
    countStatus: async (ref, status) => Number((await runPipelined(client, [countCommand(ref, status)]))[0]),
  };
}
