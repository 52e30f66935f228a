import { acrossOutcomeSchema, removeAcrossInput, retryAcrossInput } from '../../contracts/across-queues.js';
import { createTask } from '../../server/tasks/create-task.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { actAcross, matchingQueues, type AcrossAction } from './across-queues.js';

/** `POST /c/{id}/jobs/retry` and `…/remove`: one status, every queue the globs match. */
function acrossProcedure(action: AcrossAction) {
  return connectionProcedure
    .meta({
      permission: action === 'retry' ? 'jobs.retry' : 'jobs.remove',
      runsAsTask: true,
      bodyExample: { status: 'failed', queues: { include: ['emails*'], exclude: [] }, dryRun: true },
      openapi: {
        method: 'POST',
        path: `/c/{connectionId}/jobs/${action}`,
        tags: ['jobs'],
        summary:
          action === 'retry'
            ? 'Retry failed (or completed) jobs across every matching queue'
            : 'Remove jobs of a status across every matching queue',
        description:
          'Acts on the queues whose names match `queues.include` and none of `queues.exclude`. `dryRun: true` only counts. Synchronously at most 100 batches of 1,000 per request (`done: false`: call again); `async: true` runs it as a background task (202 `{ taskId }`, throttled by `maxPerSecond`).',
      },
    })
    .input(action === 'retry' ? retryAcrossInput : removeAcrossInput)
    .output(acrossOutcomeSchema)
    .mutation(async ({ ctx, input }) => {
      const refs = await matchingQueues(ctx.store, ctx.services.queueDirectory, input.queues);
      if (!input.async || input.dryRun) return actAcross(ctx.store, refs, action, input.status, input.dryRun === true);
      const taskId = await createTask(
        ctx.services.persistence.fork(),
        {
          kind: `jobs.${action}Across`,
          organizationId: ctx.actor.organizationId,
          connectionId: ctx.store.connection.id,
          queueName: null,
          params: { status: input.status, queues: refs.map((ref) => ({ name: ref.name, prefix: ref.prefix })) },
          maxPerSecond: input.maxPerSecond,
        },
        ctx.actor,
        ctx.services.tasks,
      );
      return { dryRun: false, queues: [], matched: 0, succeeded: 0, done: false, taskId };
    });
}

export const retryAcrossProcedure = acrossProcedure('retry');
export const removeAcrossProcedure = acrossProcedure('remove');
