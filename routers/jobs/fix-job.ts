import type { Job, JobsOptions, Queue } from 'bullmq';
import { AppError, notFound } from '../../contracts/app-error.js';
import { defaultMaxDataBytes, type JobSummary } from '../../contracts/jobs.js';
import { toJobState } from '../../server/bullmq/job-state.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';
import { toJobSummary } from './job-summary.js';

/** The job, or 404 naming it. */
export async function requireJob(queue: Queue, jobId: string): Promise<Job> {
  const job = await queue.getJob(jobId);
  if (!job) throw notFound(`Job "${jobId}"`);
  return job;
}

/** Replaces a job's data; refused while a worker holds it (its processor would see data change under it). */
export async function updateJobData(queue: Queue, jobId: string, data: unknown): Promise<Job> {
  const job = await requireJob(queue, jobId);
  if ((await job.getState()) === 'active') {
    throw new AppError('JOB_ACTIVE', `Job "${jobId}" is active: a worker holds it; change its data when it finishes`, {
      jobId,
    });
  }
  await job.updateData(data);
  return job;
}

/** Options a copy does not take from the original: it is a new job. */
const notCopied = ['jobId', 'repeat', 'repeatJobKey', 'parent', 'timestamp', 'prevMillis', 'debounce', 'deduplication'];

/** A new job with the original's name and options (and data) unless given, under a new id. */
export async function duplicateJob(
  queue: Queue,
  jobId: string,
  changes: { data?: unknown; opts?: JobsOptions },
): Promise<Job> {
  const job = await requireJob(queue, jobId);
  const opts = Object.fromEntries(Object.entries(job.opts).filter(([key]) => !notCopied.includes(key))) as JobsOptions;
  return queue.add(job.name, changes.data === undefined ? job.data : changes.data, { ...opts, ...changes.opts });
}

/** Keeps the newest `keep` stack traces of a job (BullMQ stores them oldest first). */
export async function clearStacktraces(
  { store, queue: { ref, queue } }: QueueOnStore,
  jobId: string,
  keep: number,
): Promise<{ removed: number; kept: number }> {
  const job = await requireJob(queue, jobId);
  const traces = job.stacktrace ?? [];
  const kept = keep === 0 ? [] : traces.slice(-keep);
  await store.setStacktraces(ref, jobId, kept);
  return { removed: traces.length - kept.length, kept: kept.length };
}

/** The job as the store has it now, in the list shape (one reading: fields and state agree). */
export async function jobSummaryNow(queue: Queue, jobId: string): Promise<JobSummary> {
  const job = await requireJob(queue, jobId);
  return toJobSummary(job, toJobState(await job.getState()), { maxDataBytes: defaultMaxDataBytes });
}
