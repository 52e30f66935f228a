import { bulkOutcomeSchema, invokeJobsInput, removeJobsInput, retryJobsInput } from '../../contracts/job-actions.js';
import { invokeJobs as invokeDelayedJobs } from '../../domain/jobs/bulk/invoke-jobs.js';
import { removeJobs as removeJobsFromQueue } from '../../domain/jobs/bulk/remove-jobs.js';
import { retryJobs as retryFinishedJobs } from '../../domain/jobs/bulk/retry-jobs.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { jobRouteErrors, jobsPath, jobsTags } from './openapi.js';

const bulkMeta = (action: 'retry' | 'remove' | 'invoke', summary: string) =>
  ({
    permission: `jobs.${action}`,
    openapi: { method: 'POST', path: `${jobsPath}/${action}`, tags: jobsTags, summary, errorResponses: { ...jobRouteErrors, 404: 'No such connection' } },
  }) as const;

export const retryJobs = connectionProcedure
  .meta(bulkMeta('retry', 'Moves failed or completed jobs back to waiting; results per id'))
  .input(retryJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => retryFinishedJobs({ store: ctx.store, ...input }));

export const removeJobs = connectionProcedure
  .meta(bulkMeta('remove', 'Removes jobs; locked active jobs are refused per id'))
  .input(removeJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => removeJobsFromQueue({ store: ctx.store, ...input }));

export const invokeJobs = connectionProcedure
  .meta(bulkMeta('invoke', 'Promotes delayed jobs to run now, optionally replacing their data'))
  .input(invokeJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => invokeDelayedJobs({ store: ctx.store, ...input }));
