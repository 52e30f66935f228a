import { addJobInput } from '../../contracts/job-actions.js';
import { jobSummarySchema } from '../../contracts/jobs.js';
import { addJob as addJobToQueue } from '../../domain/jobs/add-job.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobRouteErrors, jobsPath, jobsTags } from './openapi.js';

export const addJob = connectionProcedure
  .meta({
    permission: 'jobs.add',
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: jobsPath,
      tags: jobsTags,
      summary: 'Adds a job; answers 201 with its summary',
      errorResponses: { ...jobRouteErrors, 409: 'A job with this jobId exists', 413: 'Body over 1 MB' },
    },
  })
  .input(addJobInput)
  .output(jobSummarySchema)
  .mutation(async ({ ctx, input }) => {
    const job = await addJobToQueue({ store: ctx.store, ...input });
    // Adding a job can create its queue: queue lists show it at once.
    ctx.services.queueDirectory.remember(ctx.store.connection.id, { name: input.queueName, prefix: ctx.store.defaultPrefix });
    return job;
  });
