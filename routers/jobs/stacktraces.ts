import { jobStacktracesSchema } from '../../contracts/jobs.js';
import { jobParams } from '../../contracts/params.js';
import { getJobStacktraces } from './job-logs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const stacktracesProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    openapi: {
      method: 'GET',
      path: `${jobPath}/stacktraces`,
      tags: jobsTags,
      summary: "A job's stack traces, one per failed attempt kept",
    },
  })
  .input(jobParams)
  .output(jobStacktracesSchema)
  .query(({ ctx, input }) => getJobStacktraces({ queue: ctx.queue.queue, jobId: input.jobId }));
