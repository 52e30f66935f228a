import { maxLogRange } from '../../contracts/jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import { requireJob } from './load-jobs.js';

interface JobLocator {
  store: StoreHandle;
  queueName: string;
  jobId: string;
}

/** Log lines [start, end] of a job, oldest first, and how many it has. */
export async function getJobLogs({ store, queueName, jobId, start, end }: JobLocator & { start: number; end: number }) {
  if (end < start) throw new AppError('VALIDATION_FAILED', 'end must not be below start', { field: 'end' });
  if (end - start + 1 > maxLogRange) {
    throw new AppError('VALIDATION_FAILED', `At most ${maxLogRange} log lines per call (end - start + 1)`, { field: 'end' });
  }
  const queue = store.queue(queueName);
  await requireJob(queue, jobId);
  return queue.getJobLogs(jobId, start, end, true);
}

/** Removes a job's log lines, keeping the newest `keep` when given. */
export async function clearJobLogs({ store, queueName, jobId, keep }: JobLocator & { keep?: number | undefined }) {
  const queue = store.queue(queueName);
  const job = await requireJob(queue, jobId);
  await job.clearLogs(keep);
  const { count } = await queue.getJobLogs(jobId, 0, 0);
  return { success: true as const, count };
}

export async function getJobStacktraces({ store, queueName, jobId }: JobLocator) {
  const job = await requireJob(store.queue(queueName), jobId);
  return { stacktraces: job.stacktrace ?? [], failedReason: job.failedReason ?? null, attemptsMade: job.attemptsMade };
}
