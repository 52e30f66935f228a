import { randomUUID } from 'node:crypto';
import { AppError } from '../../contracts/app-error.js';
import { moveJobsInput, moveOutcomeSchema } from '../../contracts/job-move.js';
import { assertProtectionAllows } from '../../server/auth/connection-protection.js';
import { resolveQueue } from '../../server/bullmq/resolve-queue.js';
import { openConnection } from '../../server/stores/open-connection.js';
import { createTask } from '../../server/tasks/create-task.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { moveSynchronously } from './move-synchronously.js';
import { planMove } from './move-plan.js';
import { jobsPath, jobsTags } from './openapi.js';

/**
 * Redrive: jobs of this queue become new waiting jobs of another (same name, data, options,
 * creation time, attempts made and logs), each copied and removed in one step (see planMove).
 */
export const moveProcedure = queueProcedure
  .meta({
    permission: 'jobs.move',
    runsAsTask: true,
    errors: {
      UNSUPPORTED_QUEUE_NAME: 'The target queue would hold ":"',
      FORBIDDEN: 'The target connection belongs to another organization',
      CONNECTION_PROTECTED:
        "This connection's protection refuses emptying the source (read-only; `admin` and your role is below admin; `confirm` and `confirmName` is not the source queue's name), or the target connection is read-only",
      MOVE_JOURNAL_MISSING:
        'The target is a PostgreSQL connection that may not create the move journal table (`bullpen_move_journal`): a DBA creates it (docs/api.md)',
      VALIDATION_FAILED:
        'The target is the source queue, two selections at once (`query` with `jobIds` or `status`), an unknown `query.in` field, `cursor` or `limit` without `query`, or a cursor of another move',
    },
    bodyExample: { to: { queueName: 'emails-retry' }, status: 'failed', all: true, dryRun: true },
    openapi: {
      method: 'POST',
      path: `${jobsPath}/move`,
      tags: jobsTags,
      summary: 'Moves jobs to another queue (dead-letter redrive), on this connection or another one you may write',
      description:
        'Select with `jobIds`, `{ status, all: true }` or `{ query: { q, in?, status? } }` (the jobs `GET …/search` would match; `status` defaults to waiting, delayed, completed, failed, prioritized). Each job becomes a new waiting job of the target under `<source queue>-<id>` (or its own id with `keepIds`), keeping its name, data, options, creation time, attempts made and logs; the copy and the removal are one step (within a store one script; across stores, Redis and PostgreSQL connections alike, through a move journal in the target store), so a crash or a resumed task neither loses nor doubles a job, and of two concurrent moves each job counts for the one that moved it. A store fault mid-way answers 503 with the counts reached (`done: false`). `dryRun` counts (the query form with up to 20 `sampleIds`); the status form moves at most 100 batches of 1,000 per request (`done: false`: call again); the query form scans a bounded part per request and answers `cursor` until `done` (send the same body with it); with `async: true` either runs as a background task (202, throttled by `maxPerSecond`).',
    },
  })
  .input(moveJobsInput)
  .output(moveOutcomeSchema)
  .mutation(async ({ ctx, input }) => {
    const targetStore = input.to.connectionId
      ? await openConnection(ctx.services, ctx.actor, input.to.connectionId)
      : ctx.store;
    // The source's protection was applied on the way in (a move is destructive there); the target's is applied here, as a write.
    assertProtectionAllows({
      connection: targetStore.connection,
      actor: ctx.actor,
      permission: 'jobs.move',
      input,
      confirms: 'queue',
      change: 'write',
    });
    const resolved = await resolveQueue(
      targetStore,
      { queueName: input.to.queueName, prefix: input.to.prefix },
      'create',
    );
    const target = {
      connectionId: targetStore.connection.id,
      queueName: resolved.ref.name,
      prefix: resolved.ref.prefix,
    };
    if (
      target.connectionId === ctx.store.connection.id &&
      target.queueName === ctx.queue.ref.name &&
      target.prefix === ctx.queue.ref.prefix
    ) {
      throw new AppError('VALIDATION_FAILED', 'to: the target must be another queue', { field: 'to' });
    }
    if (!resolved.existed && !input.dryRun) {
      await targetStore.writeQueueMeta(resolved.ref.name, resolved.ref.prefix);
      ctx.services.queueDirectory.remember(targetStore.connection.id, resolved.ref);
    }
    if (!input.async || input.dryRun) {
      const plan = planMove({
        sourceStore: ctx.store,
        source: ctx.queue,
        targetStore,
        target: resolved.ref,
        keepIds: input.keepIds === true,
        mover: randomUUID(),
        tallied: false,
      });
      return moveSynchronously({ store: ctx.store, plan, input, where: target });
    }
    const selection = input.query ? { query: input.query } : { status: input.status };
    const params = { prefix: ctx.queue.ref.prefix, ...selection, keepIds: input.keepIds === true, to: target };
    const task = {
      kind: 'jobs.move',
      organizationId: ctx.actor.organizationId,
      connectionId: ctx.store.connection.id,
      queueName: ctx.queue.ref.name,
      params,
      maxPerSecond: input.maxPerSecond,
    };
    const taskId = await createTask(ctx.services.persistence.fork(), task, ctx.actor, ctx.services.tasks);
    return { results: [], succeeded: 0, failed: 0, done: false, taskId, target };
  });
