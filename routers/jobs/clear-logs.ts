import { clearJobLogsInput, clearJobLogsSchema } from '../../contracts/jobs.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { clearJobLogs } from './job-logs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const clearLogsProcedure = queueProcedure
  .meta({
    permission: 'jobs.logs.clear',
    openapi: {
      method: 'DELETE',
      path: `${jobPath}/logs`,
      tags: jobsTags,
      summary: "Clears a job's logs, optionally keeping the newest lines",
    },
  })
  .input(clearJobLogsInput)
  .output(clearJobLogsSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(input.jobId, await clearJobLogs({ queue: ctx.queue.queue, jobId: input.jobId, keep: input.keep })),
  );
