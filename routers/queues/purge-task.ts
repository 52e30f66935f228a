import type { PurgeSelector } from '../../contracts/queues.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { bullmqCleanType } from './clean-queue.js';
import { expandSelectors } from './purge-statuses.js';

/**
 * Purge as a background task: each status emptied in batches until a batch removes nothing, with
 * no batch cap (the synchronous route keeps the spec's cap and its 409), resumable status by status.
 */
export const purgeTask: TaskHandler = {
  kind: 'queues.purge',
  async run(context) {
    const statuses = expandSelectors(context.params.statuses as PurgeSelector[]);
    const queue = context.store.queue(context.queueName!, String(context.params.prefix));
    const removedByStatus = { ...((context.cursor?.removedByStatus as Record<string, number> | undefined) ?? {}) };
    for (let index = Number(context.cursor?.statusIndex ?? 0); index < statuses.length; index++) {
      const status = statuses[index]!;
      removedByStatus[status] ??= 0;
      for (;;) {
        const ids = await queue.clean(0, context.batchSize, bullmqCleanType(status));
        removedByStatus[status] += ids.length;
        const next = ids.length === 0 ? index + 1 : index;
        if (!(await context.progress(ids.length, { statusIndex: next, removedByStatus }))) return { removedByStatus };
        if (ids.length === 0) break;
        await context.throttle();
      }
    }
    const totalRemoved = Object.values(removedByStatus).reduce((sum, count) => sum + count, 0);
    return { statusesPurged: statuses, totalRemoved, removedByStatus };
  },
};
