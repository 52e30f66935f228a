import type { JobList, JobStatus, SummaryOptions } from '../../contracts/jobs.js';
import { pageInfoFor, pageRange, type PageQuery } from '../../contracts/pagination.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueLookup } from '../../server/bullmq/resolve-queue.js';
import { summaryHashFields } from '../../server/bullmq/job-hash.js';
import { summaryFieldsToRead, summaryFromHash } from './job-summary.js';
import { statusKey } from './job-status.js';

export interface ListJobsOptions extends PageQuery, SummaryOptions {
  store: StoreHandle;
  queue: QueueLookup;
  status: JobStatus;
  order: 'newest' | 'oldest';
}

/**
 * One page of a status in one script call: the count, one range read and
 * the summary fields of the page's job hashes; never the whole status.
 */
export async function listJobs({
  store,
  queue,
  status,
  order,
  page,
  pageSize,
  limit,
  cursor,
  ...summary
}: ListJobsOptions): Promise<JobList> {
  const position = { page, pageSize, limit, cursor };
  const { start, end } = pageRange(position);
  const { suffix, isList } = statusKey(status);
  const read = await store.readJobPage({
    queueName: queue.name,
    prefixes: queue.prefixes,
    statusKey: suffix,
    statusIsList: isList,
    start,
    end,
    oldestFirst: order === 'oldest',
    fields: summaryFieldsToRead(summaryHashFields, summary),
  });
  if (read.found === 'queue-missing') throw queue.notFound();
  return {
    jobs: read.jobs.map((job) => summaryFromHash(job.id, job.hash, status, summary)),
    ...pageInfoFor(read.total, position),
  };
}
