import type { PurgeableStatus } from '../../contracts/queues.js';
import type { RecordQueueAction } from './queue-action.js';
import { resolveQueue, type QueueTarget } from './resolve-queue.js';

/** BullMQ's key for a status: the waiting list is `wait`. */
export const bullmqCleanType = (status: PurgeableStatus) => (status === 'waiting' ? 'wait' : status);

/** Removes up to `limit` jobs of one status older than `gracePeriod` ms, with BullMQ's clean. */
export async function cleanQueue(
  target: QueueTarget & { status: PurgeableStatus; gracePeriod: number; limit: number; record: RecordQueueAction },
): Promise<{ removed: number; removedJobIds: string[] }> {
  const { ref, queue } = await resolveQueue(target);
  const removedJobIds = await queue.clean(target.gracePeriod, target.limit, bullmqCleanType(target.status));
  target.record({ queue: ref, outcome: 'done', removed: { status: target.status, count: removedJobIds.length } });
  return { removed: removedJobIds.length, removedJobIds };
}
