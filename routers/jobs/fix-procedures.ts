import {
  clearStacktracesInput,
  duplicateJobInput,
  stacktracesClearedSchema,
  updateJobDataInput,
} from '../../contracts/job-actions.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { jobSummarySchema } from '../../contracts/jobs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { clearStacktraces, duplicateJob, jobSummaryNow, updateJobData } from './fix-job.js';
import { jobPath, jobsPath, jobsTags } from './openapi.js';

export const updateDataProcedure = queueProcedure
  .meta({
    permission: 'jobs.edit',
    errors: { JOB_ACTIVE: '' },
    bodyExample: { data: { to: 'ada@example.com', template: 'welcome-v2' } },
    openapi: {
      method: 'PATCH',
      path: jobPath,
      tags: jobsTags,
      summary: "Replace a job's data (fix it before its next attempt); 409 while a worker holds it",
    },
  })
  .input(updateJobDataInput)
  .output(jobSummarySchema)
  .mutation(async ({ ctx, input }) => {
    await updateJobData(ctx.queue.queue, input.jobId, input.data);
    return jobSummaryNow(ctx.queue.queue, input.jobId);
  });

export const duplicateProcedure = queueProcedure
  .meta({
    permission: 'jobs.add',
    successStatus: 201,
    idempotent: true,
    location: `${jobsPath}/{id}`,
    bodyExample: { data: { to: 'ada@example.com' } },
    openapi: {
      method: 'POST',
      path: `${jobPath}/duplicate`,
      tags: jobsTags,
      summary: 'Add a copy of a job under a new id: same name and options unless given',
    },
  })
  .input(duplicateJobInput)
  .output(jobSummarySchema)
  .mutation(async ({ ctx, input }) => {
    const copy = await duplicateJob(ctx.queue.queue, input.jobId, {
      data: input.data,
      ...(input.opts ? { opts: input.opts } : {}),
    });
    return jobSummaryNow(ctx.queue.queue, copy.id!);
  });

export const clearStacktracesProcedure = queueProcedure
  .meta({
    permission: 'jobs.stacktraces.clear',
    openapi: {
      method: 'DELETE',
      path: `${jobPath}/stacktraces`,
      tags: jobsTags,
      summary: "Remove a job's stack traces, keeping the newest `keep`",
    },
  })
  .input(clearStacktracesInput)
  .output(stacktracesClearedSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(input.jobId, await clearStacktraces({ store: ctx.store, queue: ctx.queue }, input.jobId, input.keep)),
  );
