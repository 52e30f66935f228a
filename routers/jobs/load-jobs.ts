import type { Job, Queue } from 'bullmq';
import { notFound } from '../../contracts/app-error.js';

/** The job, or 404 naming it. */
export async function requireJob(queue: Queue, jobId: string): Promise<Job> {
  const job = await queue.getJob(jobId);
  if (!job) throw notFound(`Job "${jobId}" in queue "${queue.name}"`);
  return job;
}

/** The jobs of `ids` that still exist, in the same order; the reads go out together. */
export async function loadJobs(queue: Queue, ids: string[]): Promise<Job[]> {
  const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
  return jobs.filter((job): job is Job => job !== undefined);
}
