import type { JobList, JobStatus, SummaryOptions } from '../../contracts/jobs.js';
import { pageInfoFor, pageRange, type PageQuery } from '../../contracts/pagination.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { toJobSummary } from './job-summary.js';
import { countJobs, jobIdsInRange } from './job-status.js';
import { loadJobs } from './load-jobs.js';

export interface ListJobsOptions extends PageQuery, SummaryOptions {
  store: StoreHandle;
  queueName: string;
  status: JobStatus;
  order: 'newest' | 'oldest';
}

/** One page of a status: a count, one range read and the page's jobs; never the whole status. */
export async function listJobs({ store, queueName, status, order, page, pageSize, ...summary }: ListJobsOptions): Promise<JobList> {
  const queue = store.queue(queueName);
  const { start, end } = pageRange({ page, pageSize });
  const [total, ids] = await Promise.all([countJobs(queue, status), jobIdsInRange(queue, status, start, end, order === 'oldest')]);
  const jobs = await loadJobs(queue, ids);
  return { jobs: jobs.map((job) => toJobSummary(job, status, summary)), ...pageInfoFor(total, { page, pageSize }) };
}
