import type { BulkOutcome } from '../../../contracts/job-actions.js';
import { type BulkOptions, JobActionRefused, actOnJobs } from './act-on-jobs.js';
import { actOnStatus, statusBatchSize } from './status-batches.js';

/** Removes jobs (and their flow children); a job a worker holds locked is refused, per id. */
export async function removeJobs({ queue, jobIds, status }: BulkOptions<'waiting' | 'delayed' | 'completed' | 'failed' | 'prioritized'>): Promise<BulkOutcome> {
  if (jobIds) {
    return actOnJobs(queue, jobIds, async (job) => {
      const removed = await queue.remove(job.id!);
      if (!removed) {
        throw new JobActionRefused('LOCKED', `Job "${job.id}" is locked by a worker (it or one of its children is being processed); try again when it finishes`);
      }
    });
  }
  const cleaned = status!;
  return actOnStatus(queue, cleaned, async () => {
    const removed = await queue.clean(0, statusBatchSize, cleaned);
    return { acted: removed.length, more: removed.length === statusBatchSize };
  });
}
