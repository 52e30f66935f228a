import type { BulkOutcome } from '../../../contracts/job-actions.js';
import { type BulkOptions, actOnJobs, requireState } from './act-on-jobs.js';
import { actOnStatus, statusBatchSize } from './status-batches.js';

/** Moves failed (or completed) jobs back to waiting. */
export async function retryJobs({ queue, jobIds, status, data }: BulkOptions<'failed' | 'completed'> & { data?: unknown }): Promise<BulkOutcome> {
  if (jobIds) {
    return actOnJobs(queue, jobIds, async (job) => {
      const state = await requireState(job, ['failed', 'completed'] as const, 'retried');
      // Fixed data first, so the next attempt runs with it.
      if (data !== undefined) await job.updateData(data);
      await job.retry(state);
    });
  }
  const state = status!;
  // Only jobs finished before the request: jobs failing meanwhile are not chased forever.
  const before = Date.now();
  return actOnStatus(queue, state, async () => ({ more: (await queue.backend.retryFinishedJobs(state, statusBatchSize, before)) !== 0 }));
}
