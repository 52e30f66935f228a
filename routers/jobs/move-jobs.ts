import type { Queue } from 'bullmq';
import type { BulkResult } from '../../contracts/job-actions.js';
import type { MoveOrder, MoveVerdict } from '../../server/bullmq/move-within-store.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { movedJobId, movedOpts } from './moved-job.js';

export { movedJobId, movedOpts } from './moved-job.js';

/** Carries orders from the source to the target (within one store, or across two with a journal): one verdict per order. */
export type Carrier = (orders: MoveOrder[]) => Promise<MoveVerdict[]>;

/** A move's two ends and how jobs cross between them. */
export interface MovePlan {
  source: { ref: QueueRef; queue: Queue; readOpts(jobIds: string[]): Promise<Array<string | null>> };
  target: { ref: QueueRef; keepIds: boolean };
  carry: Carrier;
}

const refused = (jobId: string, code: BulkResult['code'] & string, error: string): BulkResult => ({
  jobId,
  ok: false,
  code,
  error,
});

function resultOf(jobId: string, verdict: MoveVerdict, targetId: string): BulkResult {
  switch (verdict) {
    case 'moved':
      return { jobId, ok: true };
    case 'missing':
      return refused(jobId, 'NOT_FOUND', `Job "${jobId}" was not found (or another move took it first)`);
    case 'locked':
      return refused(jobId, 'LOCKED', `Job "${jobId}" is being processed; move it when it finishes`);
    case 'flow':
      return refused(
        jobId,
        'FAILED',
        `Job "${jobId}" is part of a flow (it has a parent or children); moves take standalone jobs`,
      );
    case 'scheduled':
      return refused(jobId, 'FAILED', `Job "${jobId}" is a job scheduler's next run; change the scheduler instead`);
    case 'changed':
      return refused(jobId, 'FAILED', `Job "${jobId}" changed while being moved; it stays in the source queue`);
    case 'taken':
      return refused(
        jobId,
        'FAILED',
        `The target queue already holds a job "${targetId}"; job "${jobId}" stays in the source queue`,
      );
  }
}

/** Jobs whose options are read and rewritten while the chunk before them is being carried. */
const ordersPerChunk = 250;

/** A chunk's orders, and the results of its jobs that need no carrying (gone, or refused before any move). */
async function prepareChunk(plan: MovePlan, ids: string[]) {
  const opts = await plan.source.readOpts(ids);
  const results = new Map<string, BulkResult>();
  const orders: MoveOrder[] = [];
  ids.forEach((jobId, index) => {
    const readOpts = opts[index];
    const targetId = plan.target.keepIds ? jobId : movedJobId(plan.source.ref.name, jobId);
    if (readOpts === null || readOpts === undefined) results.set(jobId, resultOf(jobId, 'missing', targetId));
    else if (plan.target.keepIds && /^\d+$/.test(jobId))
      results.set(
        jobId,
        refused(
          jobId,
          'FAILED',
          `Job "${jobId}" has a numeric id, which BullMQ does not accept as a custom id; move it without keepIds`,
        ),
      );
    else orders.push({ jobId, targetId, readOpts, movedOpts: movedOpts(readOpts, targetId) });
  });
  return { orders, results };
}

/**
 * Moves the named jobs, each at most once whatever happens to the service (see the carriers):
 * a result per distinct id. Numeric ids cannot be kept (BullMQ refuses them as custom ids).
 * Chunk by chunk, the next chunk's options are read and rewritten while the store carries the
 * current one, so Redis is not left idle while the service prepares (the chunks hold different
 * jobs, and the carrying script checks each job's options against what was read: `changed`).
 */
export async function moveJobIds(plan: MovePlan, jobIds: string[]): Promise<BulkResult[]> {
  const ids = [...new Set(jobIds)];
  if (ids.length === 0) return [];
  const results = new Map<string, BulkResult>();
  let next = prepareChunk(plan, ids.slice(0, ordersPerChunk));
  for (let start = 0; start < ids.length; start += ordersPerChunk) {
    const chunk = await next;
    const carrying = plan.carry(chunk.orders);
    const following = start + ordersPerChunk;
    if (following < ids.length) {
      next = prepareChunk(plan, ids.slice(following, following + ordersPerChunk));
      // Awaited on the next turn; a carry that fails first must not leave it unhandled.
      next.catch(() => undefined);
    }
    const verdicts = await carrying;
    for (const [jobId, result] of chunk.results) results.set(jobId, result);
    chunk.orders.forEach((order, index) => {
      results.set(order.jobId, resultOf(order.jobId, verdicts[index]!, order.targetId));
    });
  }
  return ids.map((jobId) => results.get(jobId)!);
}

/** The query form's action: move each matched id. */
export const moveEach = (plan: MovePlan) => (jobIds: string[]) => moveJobIds(plan, jobIds);

/** A move's part of a query cursor's fingerprint: a cursor continues moving to the same queue only. */
export const moveScope = (to: { connectionId: string; queueName: string; prefix: string }) =>
  `move:${JSON.stringify([to.connectionId, to.prefix, to.queueName])}`;

/**
 * One batch of a status-wide move: the `batchSize` oldest-listed jobs after `skip` (the ones
 * refused earlier stay at the head and are skipped). Moved jobs leave the status, so the next
 * batch starts at the same place. A job another move took first is in neither count: each job
 * is counted by the move that moved it.
 */
export async function moveStatusBatch(
  plan: MovePlan,
  status: string,
  skip: number,
  batchSize: number,
): Promise<{ results: BulkResult[]; more: boolean }> {
  const ids = await plan.source.queue.getRanges([status as 'failed'], skip, skip + batchSize - 1, true);
  const results = await moveJobIds(plan, ids);
  return { results: results.filter((result) => result.code !== 'NOT_FOUND'), more: ids.length === batchSize };
}
