import { jobLogsInput, jobLogsSchema } from '../../contracts/jobs.js';
import { getJobLogs } from './job-logs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const logsProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    // The job script checks the queue's meta key itself: one round trip in all.
    queueCheck: 'in-script',
    errors: { RESPONSE_TOO_LARGE: 'The lines are over SERVICE_MAX_RESPONSE_BYTES: ask a smaller range (start, end)' },
    openapi: { method: 'GET', path: `${jobPath}/logs`, tags: jobsTags, summary: "A range of a job's log lines" },
  })
  .input(jobLogsInput)
  .output(jobLogsSchema)
  .query(({ ctx, input }) =>
    getJobLogs({ store: ctx.store, queue: ctx.queueLookup, jobId: input.jobId, start: input.start, end: input.end }),
  );
