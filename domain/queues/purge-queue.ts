import type { Queue } from 'bullmq';
import type { PurgeResult, PurgeSelector } from '../../contracts/queues.js';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { AppError } from '../errors.js';
import { bullmqCleanType } from './clean-queue.js';
import type { RecordQueueAction } from './queue-action.js';
import type { QueueRef } from '../stores/queue-key.js';
import { runPipelined } from '../stores/pipelined.js';
import { countCommand } from './queue-states.js';
import { expandSelectors, purgeStatuses, type StatusCleaner } from './purge-statuses.js';
import { requireConfirmation, resolveQueue, type QueueTarget } from './resolve-queue.js';

/**
 * BullMQ 6's clean handles every status, `prioritized` and `paused`
 * included (its cleanJobsInSet script reads the matching key), so each batch
 * is one `clean(0, limit, type)` call: a status never loses another's jobs.
 */
export function bullmqCleaner(queue: Queue, client: StoreClient, ref: QueueRef): StatusCleaner {
  return {
    clean: (status, limit) => queue.clean(0, limit, bullmqCleanType(status)),
    count: async (status) => Number((await runPipelined(client, [countCommand(ref, status)]))[0]),
  };
}

/** The spec's purge: confirmation and statuses are checked before anything is removed; the queue stays. */
export async function purgeQueue(
  target: QueueTarget & { confirmName: string; statuses: PurgeSelector[]; record: RecordQueueAction },
): Promise<PurgeResult> {
  requireConfirmation(target.queueName, target.confirmName);
  const statuses = expandSelectors(target.statuses);
  const { ref, queue } = await resolveQueue(target);
  try {
    const progress = await purgeStatuses({ cleaner: bullmqCleaner(queue, target.store.client, ref), statuses });
    target.record({ queue: ref, outcome: 'done', removed: { totalRemoved: progress.totalRemoved, removedByStatus: progress.removedByStatus } });
    return { success: true, queueName: ref.name, ...progress };
  } catch (error) {
    if (error instanceof AppError && error.code === 'PURGE_CAP_REACHED') {
      const { removedSoFar, removedByStatus, status } = error.details;
      target.record({ queue: ref, outcome: 'stopped', removed: { totalRemoved: removedSoFar, removedByStatus, capReachedFor: status } });
    }
    throw error;
  }
}
