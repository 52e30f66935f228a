import type { PurgeableStatus } from '../../contracts/queues.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';

/** BullMQ's key for a status: the waiting list is `wait`. */
export const bullmqCleanType = (status: PurgeableStatus) => (status === 'waiting' ? 'wait' : status);

/** Removes up to `limit` jobs of one status older than `gracePeriod` ms, with BullMQ's clean. */
export async function cleanQueue({
  queue,
  status,
  gracePeriod,
  limit,
}: {
  queue: ResolvedQueue;
  status: PurgeableStatus;
  gracePeriod: number;
  limit: number;
}): Promise<{ removed: number; removedJobIds: string[] }> {
  const removedJobIds = await queue.queue.clean(gracePeriod, limit, bullmqCleanType(status));
  return { removed: removedJobIds.length, removedJobIds };
}
