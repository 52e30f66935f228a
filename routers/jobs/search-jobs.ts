import { jobSearchSchema, searchJobsInput } from '../../contracts/job-search.js';
import { searchJobs as scanForJobs } from '../../domain/jobs/search/search-jobs.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobRouteErrors, jobsTags, queuePath } from './openapi.js';

export const searchJobs = connectionProcedure
  .meta({
    permission: 'jobs.read',
    openapi: {
      method: 'GET',
      path: `${queuePath}/search`,
      tags: jobsTags,
      summary: 'Search jobs by id, name, data or failure reason: a bounded scan continued by cursor',
      errorResponses: jobRouteErrors,
    },
  })
  .input(searchJobsInput)
  .output(jobSearchSchema)
  .query(({ ctx, input }) => scanForJobs({ store: ctx.store, ...input }));
