import { jobTreeInput, jobTreeSchema } from '../../contracts/job-flows.js';
import { getJobTree as readJobTree } from '../../domain/jobs/job-tree.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobRouteErrors, jobsTags } from './openapi.js';

export const getJobTree = connectionProcedure
  .meta({
    permission: 'jobs.read',
    openapi: { method: 'GET', path: `${jobPath}/tree`, tags: jobsTags, summary: 'The flow below a job, bounded in depth and size', errorResponses: jobRouteErrors },
  })
  .input(jobTreeInput)
  .output(jobTreeSchema)
  .query(({ ctx, input }) => readJobTree({ store: ctx.store, ...input }));
