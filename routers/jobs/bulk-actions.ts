import { bulkOutcomeSchema, invokeJobsInput, removeJobsInput, retryJobsInput } from '../../contracts/job-actions.js';
import type { JobQuery } from '../../contracts/job-query.js';
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

/** The query form's fields, besides `query` itself. */
const queryForm = ['query', 'dryRun?', 'cursor?', 'limit?', 'async?', 'maxPerSecond?'];

const queryDescription =
  'Select with `jobIds`, `{ status, all: true }` or `{ query: { q, in?, status? } }`: the jobs `GET …/search` would match (`status` defaults to every status this action takes). ' +
  "The query form scans a bounded part per request (the status form's cap of 100,000 jobs acted on, `limit` fewer, and a time budget) and answers `matched`, `scanned`, `done` and `cursor`: " +
  'send the same body with `cursor` until `done`. The cursor resumes right after the last job examined that stayed, so jobs acted on (which leave the status) make it neither skip nor repeat. ' +
  '`dryRun: true` counts the matches (`sampleIds`: up to 20) and acts on none; the real run then acts on the same jobs. `async: true` runs the status or query form as a background task (202).';

const queryErrors = {
  VALIDATION_FAILED:
    'Two selections at once (`query` with `jobIds` or `status`), an unknown `query.in` field, a `query.status` the action does not take, `cursor` or `limit` without `query`, or a cursor of another search',
};

/** Each action takes `jobIds` or `{ status, all: true }`, retry and remove also `{ query }` (documented as `oneOf`); invoke's `data` goes with `jobIds`. */
const bulkMeta = (action: 'retry' | 'remove' | 'invoke', summary: string, bodyExample: Record<string, unknown>) =>
  ({
    permission: `jobs.${action}`,
    runsAsTask: action !== 'invoke',
    bodyExample,
    bodyAlternatives:
      action === 'invoke'
        ? [
            ['jobIds', 'data?'],
            ['status', 'all'],
          ]
        : [
            action === 'retry' ? ['jobIds', 'data?'] : ['jobIds'],
            ['status', 'all', 'async?', 'maxPerSecond?'],
            queryForm,
          ],
    ...(action === 'invoke' ? {} : { errors: queryErrors }),
    openapi: {
      method: 'POST',
      path: `${jobsPath}/${action}`,
      tags: jobsTags,
      summary,
      ...(action === 'invoke' ? {} : { description: queryDescription }),
    },
  }) as const;

interface TaskStartContext {
  services: Services;
  actor: Actor;
  store: StoreHandle;
  queue: ResolvedQueue;
}

/** `{ status, all: true }` or `{ query }` with `async: true`: the same action as a background task, answered 202 `{ taskId }`. */
async function startTask(
  ctx: TaskStartContext,
  kind: 'jobs.retry' | 'jobs.remove',
  input: { status?: string | undefined; query?: JobQuery | undefined; maxPerSecond?: number | undefined },
) {
  const selection = input.query ? { query: input.query } : { status: input.status };
  const taskId = await createTask(
    ctx.services.persistence.fork(),
    {
      kind,
      organizationId: ctx.actor.organizationId,
      connectionId: ctx.store.connection.id,
      queueName: ctx.queue.ref.name,
      params: { ...selection, prefix: ctx.queue.ref.prefix },
      maxPerSecond: input.maxPerSecond,
    },
    ctx.actor,
    ctx.services.tasks,
  );
  return { results: [], succeeded: 0, failed: 0, done: false, taskId };
}

/** A dry run always answers at once, whatever `async` says (as the move route does). */
const runsAsTask = (input: { async?: boolean | undefined; dryRun?: boolean | undefined }) =>
  input.async === true && input.dryRun !== true;

export const retryProcedure = queueProcedure
  .meta(
    bulkMeta(
      'retry',
      'Moves failed or completed jobs back to waiting: named ids, a whole status, or the matches of a search (with a dry run); `async: true` runs it as a background task (202)',
      { status: 'failed', all: true },
    ),
  )
  .input(retryJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) =>
    runsAsTask(input)
      ? startTask(ctx, 'jobs.retry', input)
      : retryJobs({ store: ctx.store, queue: ctx.queue.queue, ...input }),
  );

export const removeProcedure = queueProcedure
  .meta(
    bulkMeta(
      'remove',
      'Removes jobs: named ids, a whole status, or the matches of a search (with a dry run); locked jobs are refused per id; `async: true` runs it as a background task (202)',
      { jobIds: ['1', '2'] },
    ),
  )
  .input(removeJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) =>
    runsAsTask(input)
      ? startTask(ctx, 'jobs.remove', input)
      : removeJobs({ store: ctx.store, queue: ctx.queue.queue, ...input }),
  );

export const invokeProcedure = queueProcedure
  .meta(
    bulkMeta('invoke', 'Promotes delayed jobs to run now, optionally replacing their data', {
      status: 'delayed',
      all: true,
    }),
  )
  .input(invokeJobsInput)
  .output(bulkOutcomeSchema)
  .mutation(({ ctx, input }) => invokeJobs({ queue: ctx.queue.queue, ...input }));
