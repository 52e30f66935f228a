import type { BulkOutcome } from '../../../contracts/job-actions.js';
import { type BulkOptions, actOnJobs, requireState } from './act-on-jobs.js';
import { actOnStatus, statusBatchSize } from './status-batches.js';

/** Moves failed (or completed) jobs back to waiting. */
export async function retryJobs({ store, queueName, jobIds, status }: BulkOptions<'failed' | 'completed'>): Promise<BulkOutcome> {
  const queue = store.queue(queueName);
  if (jobIds) {
    return actOnJobs(queue, jobIds, async (job) => job.retry(await requireState(job, ['failed', 'completed'] as const, 'retried')));
  }
  const state = status!;
  // Only jobs finished before the request: jobs failing meanwhile are not chased forever.
  const before = Date.now();
  return actOnStatus(queue, state, async () => ({ more: (await queue.backend.retryFinishedJobs(state, statusBatchSize, before)) !== 0 }));
}
