import { maxLogRange } from '../../contracts/jobs.js';
import type { Queue } from 'bullmq';
import { AppError, notFound } from '../../contracts/app-error.js';
import type { QueueLookup } from '../../server/bullmq/resolve-queue.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { requireJob } from './load-jobs.js';

interface JobLocator {
  queue: Queue;
  jobId: string;
}

interface JobLogsRange {
  store: StoreHandle;
  queue: QueueLookup;
  jobId: string;
  start: number;
  end: number;
}

/** Log lines [start, end] of a job, oldest first, and how many it has: one script call that also checks the queue. */
export async function getJobLogs({ store, queue, jobId, start, end }: JobLogsRange) {
  if (end < start) throw new AppError('VALIDATION_FAILED', 'end must not be below start', { field: 'end' });
  if (end - start + 1 > maxLogRange) {
    throw new AppError('VALIDATION_FAILED', `At most ${maxLogRange} log lines per call (end - start + 1)`, {
      field: 'end',
    });
  }
  const read = await store.readJobLogs({ queueName: queue.name, jobId, prefixes: queue.prefixes, start, end });
  if (read.found === 'queue-missing') throw queue.notFound();
  if (read.found === 'job-missing') throw notFound(`Job "${jobId}" in queue "${queue.name}"`);
  return { logs: read.logs, count: read.count };
}

/** Removes a job's log lines, keeping the newest `keep` when given. */
export async function clearJobLogs({ queue, jobId, keep }: JobLocator & { keep?: number | undefined }) {
  const job = await requireJob(queue, jobId);
  await job.clearLogs(keep);
  const { count } = await queue.getJobLogs(jobId, 0, 0);
  return { success: true as const, count };
}

export async function getJobStacktraces({ queue, jobId }: JobLocator) {
  const job = await requireJob(queue, jobId);
  return { stacktraces: job.stacktrace ?? [], failedReason: job.failedReason ?? null, attemptsMade: job.attemptsMade };
}
