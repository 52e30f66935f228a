import { jobDetailSchema } from '../../contracts/jobs.js';
import { jobParams } from '../../contracts/params.js';
import { getJobDetail } from './job-detail.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobPath, jobsTags } from './openapi.js';
import { holdForResponse } from '../../server/http/large-bodies.js';

export const getProcedure = queueProcedure
  .meta({
    permission: 'jobs.read',
    // The job script checks the queue's meta key itself: one round trip in all.
    queueCheck: 'in-script',
    errors: {
      RESPONSE_TOO_LARGE:
        'The job is over SERVICE_MAX_RESPONSE_BYTES: `readInParts` names the field route; `fieldBytes` the size of each big field',
    },
    openapi: {
      method: 'GET',
      path: jobPath,
      tags: jobsTags,
      summary:
        'A job in full, with its flow parent and children; a job over SERVICE_MAX_RESPONSE_BYTES answers 422 RESPONSE_TOO_LARGE (read it by `…/fields/{field}`)',
    },
  })
  .input(jobParams)
  .output(jobDetailSchema)
  .query(({ ctx, input }) =>
    getJobDetail({
      store: ctx.store,
      queue: ctx.queueLookup,
      jobId: input.jobId,
      limits: {
        maxBytes: ctx.services.config.http.maxResponseBytes,
        holdForResponse: (bytes) => holdForResponse(ctx, bytes),
      },
    }),
  );
