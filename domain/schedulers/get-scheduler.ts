import type { Scheduler } from '../../contracts/schedulers.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import { findQueue } from '../stores/find-queue.js';
import type { QueueRef } from '../stores/list-queue-names.js';
import { toScheduler } from './to-scheduler.js';

export async function readScheduler(store: StoreHandle, ref: QueueRef, schedulerId: string): Promise<Scheduler | null> {
  const json = await store.queue(ref.name, ref.prefix).getJobScheduler(schedulerId);
  return json ? toScheduler(ref, json) : null;
}

export const schedulerNotFound = (ref: QueueRef, schedulerId: string) =>
  new AppError('NOT_FOUND', `Job scheduler ${schedulerId} was not found in queue ${ref.name}`, { queueName: ref.name, schedulerId });

/** One job scheduler; 404 when the queue or the scheduler does not exist. */
export async function getScheduler({ store, queueName, schedulerId, prefix }: { store: StoreHandle; queueName: string; schedulerId: string; prefix?: string | undefined }): Promise<Scheduler> {
  const ref = await findQueue(store, queueName, prefix);
  const scheduler = await readScheduler(store, ref, schedulerId);
  if (!scheduler) throw schedulerNotFound(ref, schedulerId);
  return scheduler;
}
