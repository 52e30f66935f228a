import { jobListSchema, listJobsInput } from '../../contracts/jobs.js';
import { listJobs as listJobsInStatus } from '../../domain/jobs/list-jobs.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobRouteErrors, jobsPath, jobsTags } from './openapi.js';

export const listJobs = connectionProcedure
  .meta({
    permission: 'jobs.read',
    openapi: { method: 'GET', path: jobsPath, tags: jobsTags, summary: 'One page of the jobs of a status, previews capped', errorResponses: jobRouteErrors },
  })
  .input(listJobsInput)
  .output(jobListSchema)
  .query(({ ctx, input }) => listJobsInStatus({ store: ctx.store, ...input }));
