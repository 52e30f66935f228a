import { jobCountKinds, type CanDeleteResult, type JobCounts } from '../../contracts/queues.js';
import { AppError } from '../errors.js';
import { removeQueue, type RemovalDeps } from './obliterate-queue.js';
import { fetchQueueSummaries } from './queue-states.js';
import { requireConfirmation, resolveQueue, type QueueTarget, type ResolvedQueue } from './resolve-queue.js';

/** A queue may be deleted once only completed jobs remain in it. */
export function deletability(jobCounts: JobCounts): CanDeleteResult {
  const remaining = jobCountKinds.filter((kind) => kind !== 'completed' && jobCounts[kind] > 0);
  if (remaining.length === 0) return { canDelete: true, jobCounts };
  const reason = `The queue still holds jobs that are not completed: ${remaining.map((kind) => `${jobCounts[kind]} ${kind}`).join(', ')}`;
  return { canDelete: false, reason, jobCounts };
}

async function inspect(target: QueueTarget): Promise<{ resolved: ResolvedQueue; verdict: CanDeleteResult }> {
  const resolved = await resolveQueue(target);
  const [summary] = await fetchQueueSummaries(target.store.client, [resolved.ref]);
  return { resolved, verdict: deletability(summary!.jobCounts) };
}

export async function canDeleteQueue(target: QueueTarget): Promise<CanDeleteResult> {
  return (await inspect(target)).verdict;
}

/**
 * Deletes a queue that holds only completed jobs; otherwise 409 and nothing
 * is removed. (A job added between the check and the removal goes with the
 * queue: BullMQ offers no conditional obliterate.)
 */
export async function deleteQueue(
  target: QueueTarget & RemovalDeps & { confirmName: string },
): Promise<{ success: true; deleted: string; prefix: string; removedJobCounts: JobCounts }> {
  requireConfirmation(target.queueName, target.confirmName);
  const { resolved, verdict } = await inspect(target);
  if (!verdict.canDelete) {
    throw new AppError('QUEUE_NOT_EMPTY', `Queue "${target.queueName}" cannot be deleted. ${verdict.reason}`, { jobCounts: verdict.jobCounts });
  }
  await removeQueue(target, resolved, verdict.jobCounts);
  return { success: true, deleted: resolved.ref.name, prefix: resolved.ref.prefix, removedJobCounts: verdict.jobCounts };
}
