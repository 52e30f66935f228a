import type { Queue } from 'bullmq';
import type { BulkOutcome } from '../../../contracts/job-actions.js';
import { retryStatuses } from '../../../contracts/job-actions.js';
import type { ScanStore } from '../search/scan-matches.js';
import { type BulkOptions, type JobAction, actOnJobs, requireState } from './act-on-jobs.js';
import { actOnQuery, type QueryAction } from './act-on-query.js';
import { actOnStatus, statusBatchSize } from './status-batches.js';

/** Retries one failed or completed job, first replacing its data when `data` is given. */
export function retryJob(data?: unknown): JobAction {
  return async (job) => {
    const state = await requireState(job, retryStatuses, 'retried');
    // Fixed data first, so the next attempt runs with it.
    if (data !== undefined) await job.updateData(data);
    await job.retry(state);
  };
}

/** The query form's action: retry each matched id. */
export const retryEach =
  (queue: Queue): QueryAction =>
  async (jobIds) =>
    (await actOnJobs(queue, jobIds, retryJob())).results;

/** Moves failed (or completed) jobs back to waiting: named ids, a whole status, or a query's matches. */
export async function retryJobs(
  options: BulkOptions<'failed' | 'completed'> & { store: ScanStore; data?: unknown },
): Promise<BulkOutcome> {
  const { queue, jobIds, status, data, query } = options;
  if (jobIds) return actOnJobs(queue, jobIds, retryJob(data));
  // The query form scans the store with the search's reads: only it needs the store.
  if (query)
    return actOnQuery({
      ...options,
      query,
      statuses: retryStatuses,
      scope: 'retry',
      act: retryEach(queue),
    });
  const state = status!;
  // Only jobs finished before the request: jobs failing meanwhile are not chased forever.
  const before = Date.now();
  return actOnStatus(queue, state, async () => ({
    more: (await queue.backend.retryFinishedJobs(state, statusBatchSize, before)) !== 0,
  }));
}
