import { jobDetailSchema } from '../../contracts/jobs.js';
import { jobParams } from '../../contracts/params.js';
import { getJobDetail } from '../../domain/jobs/job-detail.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobRouteErrors, jobsTags } from './openapi.js';

export const getJob = connectionProcedure
  .meta({
    permission: 'jobs.read',
    openapi: { method: 'GET', path: jobPath, tags: jobsTags, summary: 'A job in full, with its flow parent and children', errorResponses: jobRouteErrors },
  })
  .input(jobParams)
  .output(jobDetailSchema)
  .query(({ ctx, input }) => getJobDetail({ store: ctx.store, ...input }));
