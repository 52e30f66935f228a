import { bulkOutcomeSchema, invokeJobsInput, removeJobsInput, retryJobsInput } from '../../contracts/job-actions.js';
import type { Actor } from '../../server/auth/actor.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import type { Services } from '../../server/services.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { createTask } from '../../server/tasks/create-task.js';
import { invokeJobs } from './bulk/invoke-jobs.js';
import { removeJobs } from './bulk/remove-jobs.js';
import { retryJobs } from './bulk/retry-jobs.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { jobsPath, jobsTags } from './openapi.js';

/** Each action takes `jobIds` or `{ status, all: true }` (documented as `oneOf`); invoke's `data` goes with `jobIds`. */
const bulkMeta = (action: 'retry' | 'remove' | 'invoke', summary: string, bodyExample: Record<string, unknown>) =>
  ({
    permission: `jobs.${action}`,
    runsAsTask: action !== 'invoke',
    bodyExample,
    bodyAlternatives: [action === 'invoke' ? ['jobIds', 'data?'] : ['jobIds'], ['status', 'all', ...(action === 'invoke' ? [] : ['async?', 'maxPerSecond?'])]],
    openapi: { method: 'POST', path: `${jobsPath}/${action}`, tags: jobsTags, summary },
  }) as const;

interface TaskStartContext {
  services: Services;
  actor: Actor;
  store: StoreHandle;
  queue: ResolvedQueue;
}

/** `{ status, all: true, async: true }`: the same action as a background task, answered 202 `{ taskId }`. */
async function startTask(ctx: TaskStartContext, kind: 'jobs.retry' | 'jobs.remove', input: { status?: string | undefined; maxPerSecond?: number | undefined }) {
  const taskId = await createTask(
    ctx.services.persistence.fork(),
    {
      kind, organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id, queueName: ctx.queue.ref.name,
      params: { status: input.status, prefix: ctx.queue.ref.prefix }, maxPerSecond: input.maxPerSecond,
    },
    ctx.actor,
  );
  return { results: [], succeeded: 0, failed: 0, done: false, taskId };
}

export const retryProcedure = queueProcedure
  .meta(bulkMeta('retry', 'Moves failed or completed jobs back to waiting; results per id; `async: true` with the status form runs it as a background task (202)', { status: 'failed', all: true }))
  .input(retryJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => (input.async ? startTask(ctx, 'jobs.retry', input) : retryJobs({ queue: ctx.queue.queue, ...input })));

export const removeProcedure = queueProcedure
  .meta(bulkMeta('remove', 'Removes jobs; locked active jobs are refused per id; `async: true` with the status form runs it as a background task (202)', { jobIds: ['1', '2'] }))
  .input(removeJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => (input.async ? startTask(ctx, 'jobs.remove', input) : removeJobs({ queue: ctx.queue.queue, ...input })));

export const invokeProcedure = queueProcedure
  .meta(bulkMeta('invoke', 'Promotes delayed jobs to run now, optionally replacing their data', { status: 'delayed', all: true }))
  .input(invokeJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => invokeJobs({ queue: ctx.queue.queue, ...input }));
