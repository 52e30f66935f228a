import type { Queue } from 'bullmq';
import type { PurgeResult, PurgeSelector } from '../../contracts/queues.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StatusCleaning } from '../../server/bullmq/status-cleaning.js';
import type { StatusCleaner } from './clean-up-to.js';
import { expandSelectors, purgeStatuses } from './purge-statuses.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';

/** The store's own removal of a status's jobs (see the store's `cleanStatus`: Redis and PostgreSQL differ). */
export function bullmqCleaner(queue: Queue, store: StatusCleaning, ref: QueueRef): StatusCleaner {
  return {
    clean: (status, limit) => store.cleanStatus(queue, ref, status, limit),
    cleanCount: (status, limit) => store.purgeCount(queue, ref, status, limit),
    count: (status) => store.countStatus(ref, status),
  };
}

/**
 * The spec's purge (its confirmation is decided before the procedure runs,
 * meta.confirm): statuses are checked before anything is removed; the queue stays. A safety-cap stop (409) carries what was removed.
 */
export async function purgeQueue({
  store,
  queue: { ref, queue },
  statuses,
}: QueueOnStore & { statuses: PurgeSelector[] }): Promise<PurgeResult> {
  const progress = await purgeStatuses({
    cleaner: bullmqCleaner(queue, store, ref),
    statuses: expandSelectors(statuses),
  });
  return { success: true, queueName: ref.name, ...progress };
}
