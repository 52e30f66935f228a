import { clearJobLogsInput, clearJobLogsSchema } from '../../contracts/jobs.js';
import { clearJobLogs } from './job-logs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const clearLogsProcedure = queueProcedure
  .meta({
    permission: 'jobs.logs.clear',
    openapi: { method: 'DELETE', path: `${jobPath}/logs`, tags: jobsTags, summary: "Clears a job's logs, optionally keeping the newest lines"},
  })
  .input(clearJobLogsInput)
  .output(clearJobLogsSchema)
  .mutation(({ ctx, input }) => clearJobLogs({ queue: ctx.queue.queue, jobId: input.jobId, keep: input.keep }));
