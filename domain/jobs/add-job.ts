import type { JobsOptions } from 'bullmq';
import type { AddJobInput } from '../../contracts/job-actions.js';
import { defaultMaxDataBytes, type JobState, type JobSummary } from '../../contracts/jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import { toJobSummary } from './job-summary.js';

type AddJobOptions = Omit<AddJobInput, 'connectionId' | 'queueName'> & { store: StoreHandle; queueName: string };

export async function addJob({ store, queueName, name, data, jobId, ...options }: AddJobOptions): Promise<JobSummary> {
  const queue = store.queue(queueName);
  // BullMQ answers an existing custom id with the existing job, silently: say so instead.
  if (jobId !== undefined && (await queue.getJob(jobId))) {
    throw new AppError('CONFLICT', `A job with id "${jobId}" already exists in queue "${queueName}"`, { field: 'jobId' });
  }
  const opts: JobsOptions = { ...options, ...(jobId === undefined ? {} : { jobId }) };
  const job = await queue.add(name, data, opts);
  await store.writeQueueMeta(queueName);
  const state = (await job.getState()) as JobState;
  return toJobSummary(job, state, { maxDataBytes: defaultMaxDataBytes });
}
