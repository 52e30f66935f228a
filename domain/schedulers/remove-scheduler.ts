import type { StoreHandle } from '../../server/stores/store-handle.js';
import { findQueue } from '../stores/find-queue.js';
import { schedulerNotFound } from './get-scheduler.js';

/** Removes a job scheduler (and its pending job); 404 when the queue or the scheduler does not exist. */
export async function removeScheduler({ store, queueName, schedulerId, prefix }: { store: StoreHandle; queueName: string; schedulerId: string; prefix?: string | undefined }) {
  const ref = await findQueue(store, queueName, prefix);
  const removed = await store.queue(ref.name, ref.prefix).removeJobScheduler(schedulerId);
  if (!removed) throw schedulerNotFound(ref, schedulerId);
  return { deleted: true as const, schedulerId };
}
