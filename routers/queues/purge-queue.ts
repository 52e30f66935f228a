import type { Queue } from 'bullmq';
import type { PurgeResult, PurgeSelector } from '../../contracts/queues.js';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { bullmqCleanType } from './clean-queue.js';
import { cleanFinishedSet } from '../../server/bullmq/clean-finished-set.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { runPipelined } from '../../server/bullmq/pipelined.js';
import { countCommand } from '../../server/bullmq/queue-states.js';
import type { StatusCleaner } from './clean-up-to.js';
import { expandSelectors, purgeStatuses } from './purge-statuses.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';

/**
 * BullMQ 6's clean handles every status, `prioritized` and `paused`
 * included (its cleanJobsInSet script reads the matching key), so each call
 * is one `clean(0, limit, type)`: a status never loses another's jobs. The
 * finished sets go through `cleanFinishedSet`: the same removal, cheaper.
 */
export function bullmqCleaner(queue: Queue, client: StoreClient, ref: QueueRef): StatusCleaner {
  return {
    clean: (status, limit) =>
      status === 'completed' || status === 'failed' ? cleanFinishedSet(client, queue, ref, status, limit) : queue.clean(0, limit, bullmqCleanType(status)),
    count: async (status) => Number((await runPipelined(client, [countCommand(ref, status)]))[0]),
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
  const progress = await purgeStatuses({ cleaner: bullmqCleaner(queue, store.client, ref), statuses: expandSelectors(statuses) });
  return { success: true, queueName: ref.name, ...progress };
}
