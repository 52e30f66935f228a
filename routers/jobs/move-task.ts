import { removeStatuses } from '../../contracts/job-actions.js';
import type { JobQuery } from '../../contracts/job-query.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { runQueryTask } from './bulk/query-task.js';
import { moveEach, moveJobIds, moveScope, moveStatusBatch } from './move-jobs.js';

interface MoveParams {
  prefix: string;
  status?: string;
  query?: JobQuery<JobStatus>;
  jobIds?: string[];
  keepIds?: boolean;
  to: { connectionId: string; queueName: string; prefix: string };
}

/** A move (redrive) as a background task; a resumed move re-adds by the same ids, so nothing doubles. */
export const moveTask: TaskHandler = {
  kind: 'jobs.move',
  async run(context) {
    const params = context.params as unknown as MoveParams;
    const source = await context.store.queue(context.queueName!, params.prefix);
    const targetStore = params.to.connectionId === context.store.connection.id ? context.store : await context.openStore(params.to.connectionId);
    const target = { queue: await targetStore.queue(params.to.queueName, params.to.prefix), keepIds: params.keepIds === true };
    if (params.query) {
      return runQueryTask(context, { queue: source, query: params.query, statuses: removeStatuses, scope: moveScope(params.to), act: moveEach(source, target), counted: 'moved' });
    }
    let moved = Number(context.cursor?.moved ?? 0);
    let refused = Number(context.cursor?.refused ?? 0);
    if (params.jobIds) {
      const results = await moveJobIds(source, params.jobIds, target);
      moved = results.filter((result) => result.ok).length;
      await context.progress(results.length, { moved, refused: results.length - moved }, results.length);
      return { moved, refused: results.length - moved, results };
    }
    for (;;) {
      const batch = await moveStatusBatch(source, params.status!, refused, context.batchSize, target);
      const ok = batch.results.filter((result) => result.ok).length;
      moved += ok;
      refused += batch.results.length - ok;
      if (!(await context.progress(batch.results.length, { moved, refused })) || !batch.more) return { moved, refused };
      await context.throttle();
    }
  },
};
