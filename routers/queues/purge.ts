import { purgeInput, purgeResultSchema, type PurgeResult } from '../../contracts/queues.js';
import { createTask } from '../../server/tasks/create-task.js';
import { purgeQueue } from './purge-queue.js';
import { describeRemoval } from '../../server/trpc/middleware/audit-mutations.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const purgeProcedure = queueProcedure
  .meta({
    permission: 'queues.purge',
    confirm: 'queue',
    runsAsTask: true,
    differs: {
      'single value':
        '`statuses` is always a JSON array, as the specification fixes it: a lone string is 400 like any invalid `statuses`.',
    },
    errors: {
      CONFIRMATION_MISMATCH: '',
      PURGE_CAP_REACHED:
        'Safety cap of 500 batches reached for `status`; `removedSoFar` jobs were removed: run the purge again (or with `async: true`, which has no cap)',
    },
    bodyExample: { confirmName: 'emails', statuses: ['completed', 'failed'] },
    removes: describeRemoval((_input, result: PurgeResult) =>
      result.taskId
        ? { taskId: result.taskId }
        : { totalRemoved: result.totalRemoved, removedByStatus: result.removedByStatus },
    ),
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/queues/{queueName}/purge',
      tags: ['queues'],
      summary: 'Remove every job of the selected statuses; the queue stays',
      description:
        'Batches of 1000 per status until empty, at most 500 batches per status. 409 PURGE_CAP_REACHED names the `status` and what was removed so far. With `async: true` the purge runs as a background task (202 `{ taskId }`) with no batch cap, throttled by `maxPerSecond`.',
    },
  })
  .input(purgeInput)
  .output(purgeResultSchema)
  .mutation(async ({ ctx, input }) => {
    if (!input.async) return purgeQueue({ store: ctx.store, queue: ctx.queue, statuses: input.statuses });
    const params = { statuses: input.statuses, prefix: ctx.queue.ref.prefix };
    const task = {
      kind: 'queues.purge',
      organizationId: ctx.actor.organizationId,
      connectionId: ctx.store.connection.id,
      queueName: ctx.queue.ref.name,
      params,
      maxPerSecond: input.maxPerSecond,
    };
    const taskId = await createTask(ctx.services.persistence.fork(), task, ctx.actor, ctx.services.tasks);
    return {
      success: true as const,
      queueName: ctx.queue.ref.name,
      statusesPurged: [],
      totalRemoved: 0,
      removedByStatus: {},
      removedJobIdsSample: [],
      taskId,
    };
  });
