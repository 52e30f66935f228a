import { jobListSchema, listJobsInput } from '../../contracts/jobs.js';
import { listJobs } from './list-jobs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobsPath, jobsTags } from './openapi.js';

export const listProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    differs: {
      pagination:
        'Jobs move between statuses while you page: `nextCursor` holds a position in the status, so a job that moves meanwhile may be skipped or shown twice. `GET …/search` walks a status with a cursor that holds.',
    },
    // The job script checks the queue's meta key itself: one round trip in all.
    queueCheck: 'in-script',
    errors: {
      RESPONSE_TOO_LARGE: 'The page is over SERVICE_MAX_RESPONSE_BYTES: ask a smaller pageSize or maxDataBytes',
    },
    openapi: {
      method: 'GET',
      path: jobsPath,
      tags: jobsTags,
      summary: 'One page of the jobs of a status, previews capped',
    },
  })
  .input(listJobsInput)
  .output(jobListSchema)
  .query(({ ctx, input: { connectionId: _c, queueName: _q, prefix: _p, ...query } }) =>
    listJobs({ store: ctx.store, queue: ctx.queueLookup, ...query }),
  );
