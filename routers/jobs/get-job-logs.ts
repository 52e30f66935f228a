import { jobLogsInput, jobLogsSchema } from '../../contracts/jobs.js';
import { getJobLogs as readJobLogs } from '../../domain/jobs/job-logs.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobRouteErrors, jobsTags } from './openapi.js';

export const getJobLogs = connectionProcedure
  .meta({
    permission: 'jobs.read',
    openapi: { method: 'GET', path: `${jobPath}/logs`, tags: jobsTags, summary: "A range of a job's log lines", errorResponses: jobRouteErrors },
  })
  .input(jobLogsInput)
  .output(jobLogsSchema)
  .query(({ ctx, input }) => readJobLogs({ store: ctx.store, ...input }));
