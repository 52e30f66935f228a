import type { Scheduler } from '../../contracts/schedulers.js';
import { AppError } from '../../contracts/app-error.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import { toScheduler } from './to-scheduler.js';

export async function readScheduler({ ref, queue }: ResolvedQueue, schedulerId: string): Promise<Scheduler | null> {
  const json = await queue.getJobScheduler(schedulerId);
  return json ? toScheduler(ref, json) : null;
}

export const schedulerNotFound = (ref: QueueRef, schedulerId: string) =>
  new AppError('NOT_FOUND', `Job scheduler ${schedulerId} was not found in queue ${ref.name}`, {
    queueName: ref.name,
    schedulerId,
  });

/** One job scheduler of the queue; 404 when it does not exist. */
export async function getScheduler({
  queue,
  schedulerId,
}: {
  queue: ResolvedQueue;
  schedulerId: string;
}): Promise<Scheduler> {
  const scheduler = await readScheduler(queue, schedulerId);
  if (!scheduler) throw schedulerNotFound(queue.ref, schedulerId);
  return scheduler;
}
