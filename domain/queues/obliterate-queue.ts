import type { JobCounts } from '../../contracts/queues.js';
import type { RecordQueueAction } from './queue-action.js';
import type { QueueDirectory } from './queue-directory.js';
import { fetchQueueSummaries } from './queue-states.js';
import { requireConfirmation, resolveQueue, type QueueTarget, type ResolvedQueue } from './resolve-queue.js';

export interface RemovalDeps {
  directory: QueueDirectory;
  record: RecordQueueAction;
}

/** Removes the queue and every key of it (BullMQ obliterate, forced past active jobs), then forgets its name. */
export async function removeQueue(target: QueueTarget & RemovalDeps, resolved: ResolvedQueue, jobCounts: JobCounts): Promise<void> {
  await resolved.queue.obliterate({ force: true });
  target.directory.forget(target.store.connection.id);
  target.record({ queue: resolved.ref, outcome: 'done', removed: { queue: true, jobCounts } });
}

/** `confirmName` is optional here; when given it must match. */
export async function obliterateQueue(
  target: QueueTarget & RemovalDeps & { confirmName?: string | undefined },
): Promise<{ success: true; queueName: string; prefix: string; removedJobCounts: JobCounts }> {
  if (target.confirmName !== undefined) requireConfirmation(target.queueName, target.confirmName);
  const resolved = await resolveQueue(target);
  const [summary] = await fetchQueueSummaries(target.store.client, [resolved.ref]);
  await removeQueue(target, resolved, summary!.jobCounts);
  return { success: true, queueName: resolved.ref.name, prefix: resolved.ref.prefix, removedJobCounts: summary!.jobCounts };
}
