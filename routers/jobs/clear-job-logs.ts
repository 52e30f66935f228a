import { clearJobLogsInput, clearJobLogsSchema } from '../../contracts/jobs.js';
import { clearJobLogs as removeJobLogs } from '../../domain/jobs/job-logs.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobRouteErrors, jobsTags } from './openapi.js';

export const clearJobLogs = connectionProcedure
  .meta({
    permission: 'jobs.logs.clear',
    openapi: { method: 'DELETE', path: `${jobPath}/logs`, tags: jobsTags, summary: "Clears a job's logs, optionally keeping the newest lines", errorResponses: jobRouteErrors },
  })
  .input(clearJobLogsInput)
  .output(clearJobLogsSchema)
  .mutation(({ ctx, input }) => removeJobLogs({ store: ctx.store, ...input }));
