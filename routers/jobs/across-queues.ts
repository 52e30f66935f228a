import type { Queue } from 'bullmq';
import type { AcrossOutcome } from '../../contracts/across-queues.js';
import type { QueueDirectory } from '../../server/bullmq/queue-directory.js';
import { queueSelected } from '../../server/bullmq/queue-globs.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { countJobs } from './job-status.js';
import { countingMidway } from '../../server/stores/store-errors.js';

export type AcrossAction = 'retry' | 'remove';
export type AcrossStatus = 'failed' | 'completed' | 'waiting' | 'delayed' | 'prioritized';

const batchSize = 1000;
/** Batches one synchronous request may run across all queues (the per-queue status form's bound). */
export const batchesPerRequest = 100;

export async function matchingQueues(
  store: StoreHandle,
  directory: QueueDirectory,
  selection: { include: string[]; exclude: string[] },
): Promise<QueueRef[]> {
  return (await directory.list(store)).filter((ref) => queueSelected(ref.name, selection));
}

/**
 * One batch of the action on one queue: retry (only jobs finished before `before`, so a job
 * failing again is not retried twice) or remove (jobs timestamped before `before`). Answers how
 * many jobs it acted on, and whether any may remain.
 */
export async function actOnBatch(
  queue: Queue,
  action: AcrossAction,
  status: AcrossStatus,
  before: number,
  size = batchSize,
): Promise<{ acted: number; more: boolean }> {
  if (action === 'retry') {
    const counted = await countJobs(queue, status);
    const cursor = await queue.backend.retryFinishedJobs(status as 'failed', size, before);
    return { acted: Math.max(0, counted - (await countJobs(queue, status))), more: cursor !== 0 };
  }
  const removed = await queue.clean(Math.max(0, Date.now() - before), size, status === 'waiting' ? 'wait' : status);
  return { acted: removed.length, more: removed.length === size };
}

/** The synchronous form: counts for a dry run, else batches across the queues until done or the budget is spent. */
export async function actAcross(
  store: StoreHandle,
  refs: QueueRef[],
  action: AcrossAction,
  status: AcrossStatus,
  dryRun: boolean,
): Promise<AcrossOutcome> {
  const before = Date.now();
  let budget = batchesPerRequest;
  const queues: AcrossOutcome['queues'] = [];
  let acting = 0;
  // A store fault answers 503 with the jobs acted on before it, across the queues.
  await countingMidway(
    () => ({ succeeded: queues.reduce((total, q) => total + q.succeeded, acting), failed: 0 }),
    async () => {
      for (const ref of refs) {
        const queue = await store.queue(ref.name, ref.prefix);
        const matched = await countJobs(queue, status);
        let more = !dryRun && matched > 0;
        for (acting = 0; more && budget > 0; budget--) {
          const batch = await actOnBatch(queue, action, status, before);
          acting += batch.acted;
          more = batch.more;
        }
        queues.push({ queueName: ref.name, prefix: ref.prefix, matched, succeeded: acting, done: dryRun || !more });
        acting = 0;
      }
    },
  );
  const sum = (pick: (q: AcrossOutcome['queues'][number]) => number) => queues.reduce((total, q) => total + pick(q), 0);
  return {
    dryRun,
    queues,
    matched: sum((q) => q.matched),
    succeeded: sum((q) => q.succeeded),
    done: queues.every((q) => q.done),
  };
}
