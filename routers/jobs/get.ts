import { jobDetailSchema } from '../../contracts/jobs.js';
import { jobParams } from '../../contracts/params.js';
import { getJobDetail } from './job-detail.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';

export const getProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    // The job script checks the queue's meta key itself: one round trip in all.
    queueCheck: 'in-script',
    openapi: { method: 'GET', path: jobPath, tags: jobsTags, summary: 'A job in full, with its flow parent and children' },
  })
  .input(jobParams)
  .output(jobDetailSchema)
  .query(({ ctx, input }) => getJobDetail({ store: ctx.store, queue: ctx.queueLookup, jobId: input.jobId }));
