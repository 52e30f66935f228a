import { jobSearchSchema, searchJobsInput } from '../../contracts/job-search.js';
import { searchJobs } from './search/search-jobs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobsTags, queuePath } from './openapi.js';

export const searchProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    errors: {
      RESPONSE_TOO_LARGE: 'The answer is over SERVICE_MAX_RESPONSE_BYTES: ask a smaller limit or maxDataBytes',
    },
    openapi: {
      method: 'GET',
      path: `${queuePath}/search`,
      tags: jobsTags,
      summary:
        'Search jobs by text in id, name, data or failure reason, or by field (`where=data.customer.id:42`): a bounded scan continued by cursor',
    },
  })
  .input(searchJobsInput)
  .output(jobSearchSchema)
  .query(({ ctx, input: { connectionId: _c, queueName: _q, prefix: _p, ...search } }) =>
    searchJobs({ store: ctx.store, queue: ctx.queue, ...search }),
  );
