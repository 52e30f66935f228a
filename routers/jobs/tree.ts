import { jobTreeInput, jobTreeSchema } from '../../contracts/job-flows.js';
import { getJobTree } from './job-tree.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const treeProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    openapi: {
      method: 'GET',
      path: `${jobPath}/tree`,
      tags: jobsTags,
      summary: 'The flow below a job, bounded in depth and size',
    },
  })
  .input(jobTreeInput)
  .output(jobTreeSchema)
  .query(({ ctx, input }) =>
    getJobTree({
      store: ctx.store,
      queue: ctx.queue,
      jobId: input.jobId,
      depth: input.depth,
      maxChildren: input.maxChildren,
    }),
  );
