import { removeStatuses } from '../../contracts/job-actions.js';
import type { JobQuery } from '../../contracts/job-query.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { runQueryTask } from './bulk/query-task.js';
import { endStatusMove, moveEach, moveJobIds, moveScope, moveStatusBatch } from './move-jobs.js';
import { planMove } from './move-plan.js';

interface MoveParams {
  prefix: string;
  status?: string;
  query?: JobQuery<JobStatus>;
  jobIds?: string[];
  keepIds?: boolean;
  to: { connectionId: string; queueName: string; prefix: string };
}

/** A move (redrive) as a background task; each job moves in one step (see planMove), so a resumed move neither loses nor doubles one. */
export const moveTask: TaskHandler = {
  kind: 'jobs.move',
  async run(context) {
    const params = context.params as unknown as MoveParams;
    const ref = { name: context.queueName!, prefix: params.prefix };
    const source = await context.store.queue(ref.name, ref.prefix);
    const targetStore =
      params.to.connectionId === context.store.connection.id
        ? context.store
        : await context.openStore(params.to.connectionId);
    const target = { name: params.to.queueName, prefix: params.to.prefix };
    // The task is the mover: a resumed run finds what the run that died moved (journal, tally).
    const plan = planMove({
      sourceStore: context.store,
      source: { ref, queue: source },
      targetStore,
      target,
      keepIds: params.keepIds === true,
      mover: context.taskId,
      tallied: true,
    });
    if (params.query) {
      const result = await runQueryTask(context, {
        queue: source,
        query: params.query,
        statuses: removeStatuses,
        scope: moveScope(params.to),
        act: moveEach(plan),
        counted: 'moved',
      });
      return { ...result, moved: await plan.tally() };
    }
    let moved = Number(context.cursor?.moved ?? 0);
    let refused = Number(context.cursor?.refused ?? 0);
    if (params.jobIds) {
      const results = await moveJobIds(plan, params.jobIds);
      moved = await plan.tally();
      await context.progress(results.length, { moved, refused: results.length - moved }, results.length);
      return { moved, refused: results.length - moved, results };
    }
    for (;;) {
      // Batches as large as a progress record's share: between two batches the store waits for the next ids.
      const batch = await moveStatusBatch(plan, params.status!, refused, context.jobsPerProgress);
      moved += batch.moved;
      refused += batch.refused;
      if (!(await context.progress(batch.moved + batch.refused, { moved, refused }))) return { moved, refused };
      if (!batch.more) {
        await endStatusMove(plan, params.status!);
        // Jobs moved by a run that died after its last progress are in the tally, not in the cursor's count.
        return { moved: await plan.tally(), refused };
      }
      await context.throttle();
    }
  },
};
