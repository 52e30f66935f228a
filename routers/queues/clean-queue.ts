import type { PurgeableStatus } from '../../contracts/queues.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';

/** Removes up to `limit` jobs of one status older than `gracePeriod` ms, with BullMQ's clean (through the store: see cleanStatus). */
export async function cleanQueue({
  store,
  queue,
  status,
  gracePeriod,
  limit,
}: QueueOnStore & {
  status: PurgeableStatus;
  gracePeriod: number;
  limit: number;
}): Promise<{ removed: number; removedJobIds: string[] }> {
  const removedJobIds = await store.cleanStatus(queue.queue, queue.ref, status, limit, gracePeriod);
  return { removed: removedJobIds.length, removedJobIds };
}
