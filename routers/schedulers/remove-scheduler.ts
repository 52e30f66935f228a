import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import { schedulerNotFound } from './get-scheduler.js';

/** Removes a job scheduler (and its pending job); 404 when the scheduler does not exist. */
export async function removeScheduler({
  queue: { ref, queue },
  schedulerId,
}: {
  queue: ResolvedQueue;
  schedulerId: string;
}) {
  const removed = await queue.removeJobScheduler(schedulerId);
  if (!removed) throw schedulerNotFound(ref, schedulerId);
  return { deleted: true as const, schedulerId };
}
