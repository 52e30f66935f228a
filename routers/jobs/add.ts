import { addJobInput } from '../../contracts/job-actions.js';
import { jobSummarySchema } from '../../contracts/jobs.js';
import { addJob } from './add-job.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobsPath, jobsTags } from './openapi.js';

export const addProcedure = queueProcedure
  .meta({
    permission: 'jobs.add',
    queue: 'create',
    successStatus: 201,
    idempotent: true,
    location: `${jobsPath}/{id}`,
    errors: { CONFLICT: 'A job with this jobId exists' },
    bodyExample: { name: 'send-welcome', data: { to: 'ada@example.com' }, attempts: 3 },
    openapi: {
      method: 'POST',
      path: jobsPath,
      tags: jobsTags,
      summary: 'Adds a job; answers 201 with its summary. Creates the queue when it does not exist',
    },
  })
  .input(addJobInput)
  .output(jobSummarySchema)
  .mutation(({ ctx, input: { connectionId: _c, queueName: _q, prefix: _p, ...job } }) =>
    addJob({ store: ctx.store, queue: ctx.queue, ...job }),
  );
