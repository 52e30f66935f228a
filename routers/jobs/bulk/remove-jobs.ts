import type { Queue } from 'bullmq';
import type { BulkOutcome } from '../../../contracts/job-actions.js';
import { removeStatuses } from '../../../contracts/job-actions.js';
import type { ScanStore } from '../search/scan-matches.js';
import { type BulkOptions, type JobAction, JobActionRefused, actOnJobs } from './act-on-jobs.js';
import { actOnQuery, type QueryAction } from './act-on-query.js';
import { actOnStatus, statusBatchSize } from './status-batches.js';

/** Removes one job (and its flow children); refused while a worker holds it or one of its children. */
export const removeJob: JobAction = async (job, queue) => {
  const removed = await queue.remove(job.id!);
  if (!removed) {
    throw new JobActionRefused(
      'LOCKED',
      `Job "${job.id}" is locked by a worker (it or one of its children is being processed); try again when it finishes`,
    );
  }
};

/** The query form's action: remove each matched id. */
export const removeEach =
  (queue: Queue): QueryAction =>
  async (jobIds) =>
    (await actOnJobs(queue, jobIds, removeJob)).results;

/** Removes jobs: named ids, a whole status, or a query's matches; a job a worker holds locked is refused, per id. */
export async function removeJobs(
  options: BulkOptions<(typeof removeStatuses)[number]> & { store: ScanStore },
): Promise<BulkOutcome> {
  const { queue, jobIds, status, query } = options;
  if (jobIds) return actOnJobs(queue, jobIds, removeJob);
  // The query form scans the store with the search's reads: only it needs the store.
  if (query)
    return actOnQuery({
      ...options,
      query,
      statuses: removeStatuses,
      scope: 'remove',
      act: removeEach(queue),
    });
  const cleaned = status!;
  return actOnStatus(queue, cleaned, async () => {
    const removed = await queue.clean(0, statusBatchSize, cleaned);
    return { acted: removed.length, more: removed.length === statusBatchSize };
  });
}
