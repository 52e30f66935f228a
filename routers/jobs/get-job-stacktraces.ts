import { jobStacktracesSchema } from '../../contracts/jobs.js';
import { jobParams } from '../../contracts/params.js';
import { getJobStacktraces as readStacktraces } from '../../domain/jobs/job-logs.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobRouteErrors, jobsTags } from './openapi.js';

export const getJobStacktraces = connectionProcedure
  .meta({
    permission: 'jobs.read',
    openapi: { method: 'GET', path: `${jobPath}/stacktraces`, tags: jobsTags, summary: "A job's stack traces, one per failed attempt kept", errorResponses: jobRouteErrors },
  })
  .input(jobParams)
  .output(jobStacktracesSchema)
  .query(({ ctx, input }) => readStacktraces({ store: ctx.store, ...input }));
