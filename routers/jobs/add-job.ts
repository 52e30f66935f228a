import type { JobsOptions } from 'bullmq';
import type { AddJobInput } from '../../contracts/job-actions.js';
import { defaultMaxDataBytes, type JobSummary } from '../../contracts/jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import { AppError } from '../../contracts/app-error.js';
import { toJobSummary } from './job-summary.js';
import { toJobState } from '../../server/bullmq/job-state.js';

type AddJobOptions = Omit<AddJobInput, 'connectionId' | 'queueName' | 'prefix'> & {
  store: StoreHandle;
  queue: ResolvedQueue;
};

/** Adds a job as a producer does, creating the queue (its meta key) when it is new. */
export async function addJob({
  store,
  queue: { ref, queue },
  name,
  data,
  jobId,
  ...options
}: AddJobOptions): Promise<JobSummary> {
  // BullMQ answers an existing custom id with the existing job, silently: say so instead.
  if (jobId !== undefined && (await queue.getJob(jobId))) {
    throw new AppError('CONFLICT', `A job with id "${jobId}" already exists in queue "${ref.name}"`, {
      field: 'jobId',
    });
  }
  const opts: JobsOptions = { ...options, ...(jobId === undefined ? {} : { jobId }) };
  const added = await queue.add(name, data, opts);
  await store.writeQueueMeta(ref.name, ref.prefix);
  // One reading after the add, fields and state alike: the object `add` returns
  // predates what the store did with the job (a worker may already hold it).
  const job = (await queue.getJob(added.id!)) ?? added;
  const state = toJobState(await job.getState());
  return toJobSummary(job, state, { maxDataBytes: defaultMaxDataBytes });
}
