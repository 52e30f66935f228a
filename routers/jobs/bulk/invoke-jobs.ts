import type { BulkOutcome } from '../../../contracts/job-actions.js';
import { type BulkOptions, actOnJobs, requireState } from './act-on-jobs.js';
import { actOnStatus, statusBatchSize } from './status-batches.js';

/** Promotes delayed jobs to run now, first replacing their data when `data` is given. */
export async function invokeJobs({
  queue,
  jobIds,
  data,
}: BulkOptions<'delayed'> & { data?: unknown }): Promise<BulkOutcome> {
  if (jobIds) {
    return actOnJobs(queue, jobIds, async (job) => {
      await requireState(job, ['delayed'] as const, 'invoked');
      if (data !== undefined) await job.updateData(data);
      await job.promote();
    });
  }
  return actOnStatus(queue, 'delayed', async () => ({
    more: (await queue.backend.promoteJobs(statusBatchSize)) !== 0,
  }));
}
