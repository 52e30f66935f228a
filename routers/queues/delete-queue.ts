import { jobCountKinds, type CanDeleteResult, type JobCounts } from '../../contracts/queues.js';
import { AppError } from '../../contracts/app-error.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';

/** A queue may be deleted once only completed jobs remain in it. */
export function deletability(jobCounts: JobCounts): CanDeleteResult {
  const remaining = jobCountKinds.filter((kind) => kind !== 'completed' && jobCounts[kind] > 0);
  if (remaining.length === 0) return { canDelete: true, jobCounts };
  const reason = `The queue still holds jobs that are not completed: ${remaining.map((kind) => `${jobCounts[kind]} ${kind}`).join(', ')}`;
  return { canDelete: false, reason, jobCounts };
}

export async function canDeleteQueue({ store, queue }: QueueOnStore): Promise<CanDeleteResult> {
  const [summary] = await store.queueSummaries([queue.ref]);
  return deletability(summary!.jobCounts);
}

/**
 * Deletes a queue that holds only completed jobs; otherwise 409 and nothing
 * is removed. (A job added between the check and the removal goes with the
 * queue: BullMQ offers no conditional obliterate.)
 */
export async function deleteQueue(
  target: QueueOnStore,
): Promise<{ success: true; deleted: string; prefix: string; removedJobCounts: JobCounts }> {
  const { ref } = target.queue;
  const verdict = await canDeleteQueue(target);
  if (!verdict.canDelete) {
    throw new AppError('QUEUE_NOT_EMPTY', `Queue "${ref.name}" cannot be deleted. ${verdict.reason}`, {
      jobCounts: verdict.jobCounts,
    });
  }
  // Forced: BullMQ refuses to obliterate past active jobs otherwise.
  await target.queue.queue.obliterate({ force: true });
  return { success: true, deleted: ref.name, prefix: ref.prefix, removedJobCounts: verdict.jobCounts };
}
