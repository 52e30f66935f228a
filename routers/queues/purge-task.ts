import type { PurgeSelector } from '../../contracts/queues.js';
import { cleanCallPlan } from './clean-calls.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { countUpTo } from './clean-up-to.js';
import { bullmqCleaner } from './purge-queue.js';
import { expandSelectors } from './purge-statuses.js';

/**
 * Purge as a background task: each status emptied in batches until a clean call removes nothing, with
 * no batch cap (the synchronous route keeps the spec's cap and its 409), resumable status by status.
 * A batch goes to Redis as the synchronous purge sends it (`cleanCallPlan`: two calls of 250 in flight, not the
 * store's bulkCallsInFlight: Redis runs every call already sent before another client's command, so a PING waits
 * behind all of them, and a clean call leaves the service nothing to do between two); progress is recorded,
 * and a cancel seen, between batches. A task records counts only, so its calls answer counts, not ids (countUpTo).
 */
export const purgeTask: TaskHandler = {
  kind: 'queues.purge',
  async run(context) {
    const statuses = expandSelectors(context.params.statuses as PurgeSelector[]);
    const ref = { prefix: String(context.params.prefix), name: context.queueName! };
    const cleaner = bullmqCleaner(await context.store.queue(ref.name, ref.prefix), context.store, ref);
    const removedByStatus = { ...((context.cursor?.removedByStatus as Record<string, number> | undefined) ?? {}) };
    for (let index = Number(context.cursor?.statusIndex ?? 0); index < statuses.length; index++) {
      const status = statuses[index]!;
      removedByStatus[status] ??= 0;
      const plan = cleanCallPlan(status, context.batchSize);
      for (let emptied = false; !emptied; ) {
        let removed = 0;
        emptied = await countUpTo(cleaner, status, context.jobsPerProgress, plan, (count) => (removed += count));
        removedByStatus[status] += removed;
        const next = emptied ? index + 1 : index;
        if (!(await context.progress(removed, { statusIndex: next, removedByStatus }))) return { removedByStatus };
        if (!emptied) await context.throttle();
      }
    }
    const totalRemoved = Object.values(removedByStatus).reduce((sum, count) => sum + count, 0);
    return { statusesPurged: statuses, totalRemoved, removedByStatus };
  },
};
