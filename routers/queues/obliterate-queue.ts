import type { JobCounts } from '../../contracts/queues.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';

/** Removes the queue and every key of it (BullMQ obliterate, forced past active jobs); the route asks for its name first (meta.confirm). */
export async function obliterateQueue(
  target: QueueOnStore,
): Promise<{ success: true; queueName: string; prefix: string; removedJobCounts: JobCounts }> {
  const { ref, queue } = target.queue;
  const [summary] = await target.store.queueSummaries([ref]);
  await queue.obliterate({ force: true });
  return { success: true, queueName: ref.name, prefix: ref.prefix, removedJobCounts: summary!.jobCounts };
}
