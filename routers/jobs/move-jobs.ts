import type { Queue } from 'bullmq';
import type { BulkResult } from '../../contracts/job-actions.js';
import type { MoveOrder, MoveVerdict } from '../../server/bullmq/move-within-store.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { eachInWindow } from '../../server/tasks/call-window.js';
import { movedJobId, movedOpts } from './moved-job.js';
import { optionsAhead } from './options-ahead.js';

export { movedJobId, movedOpts } from './moved-job.js';

/** Carries orders from the source to the target (within one store, or across two with a journal): one verdict per order. */
export type Carrier = (orders: MoveOrder[]) => Promise<MoveVerdict[]>;

/** A move's two ends and how jobs cross between them. */
export interface MovePlan {
  source: { ref: QueueRef; queue: Queue; readOpts(jobIds: string[]): Promise<Array<string | null>> };
  target: { ref: QueueRef; keepIds: boolean };
  carry: Carrier;
  /** Jobs a carry takes, and carries sent at once (more than one only where carries of disjoint jobs may overlap). */
  callSize: number;
  callsInFlight: number;
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

/** What became of one job of a move: moved, or the result of a job that stays where it was. */
type Outcome = 'moved' | BulkResult;

/** A call's orders (with each job's place among the move's ids); jobs that need no carrying are reported at once. */
function ordersOf(plan: MovePlan, ids: string[], first: number, opts: Array<string | null>, report: Reporter) {
  const orders: Array<MoveOrder & { at: number }> = [];
  ids.forEach((jobId, index) => {
    const readOpts = opts[index];
    const targetId = plan.target.keepIds ? jobId : movedJobId(plan.source.ref.name, jobId);
    if (readOpts === null || readOpts === undefined) report(first + index, resultOf(jobId, 'missing', targetId));
    else if (plan.target.keepIds && /^\d+$/.test(jobId))
      report(
        first + index,
        refused(
          jobId,
          'FAILED',
          `Job "${jobId}" has a numeric id, which BullMQ does not accept as a custom id; move it without keepIds`,
        ),
      );
    else orders.push({ at: first + index, jobId, targetId, readOpts, movedOpts: movedOpts(readOpts, targetId) });
  });
  return orders;
}

type Reporter = (index: number, outcome: Outcome) => void;

/**
 * Moves `ids` (distinct), each at most once whatever happens to the service (see the carriers),
 * reporting each job's outcome by its place in `ids`. Numeric ids cannot be kept (BullMQ refuses
 * them as custom ids). Calls of `plan.callSize` jobs, `plan.callsInFlight` at once, each next one
 * sent as soon as one ends; options are read a piece ahead (optionsAhead) and rewritten call by
 * call just before it is sent, so the store carries while the service prepares, with no pause
 * between chunks (the carrying script checks each job's options against what was read: `changed`).
 */
async function carryIds(plan: MovePlan, ids: string[], report: Reporter): Promise<void> {
  const options = optionsAhead(ids, plan.source.readOpts, plan.callSize);
  const starts = Array.from({ length: Math.ceil(ids.length / plan.callSize) }, (_, call) => call * plan.callSize);
  await eachInWindow(starts, plan.callsInFlight, async (start) => {
    const callIds = ids.slice(start, start + plan.callSize);
    const orders = ordersOf(plan, callIds, start, await options(start, callIds.length), report);
    if (orders.length === 0) return;
    const verdicts = await plan.carry(orders);
    orders.forEach((order, index) => {
      const verdict = verdicts[index]!;
      report(order.at, verdict === 'moved' ? verdict : resultOf(order.jobId, verdict, order.targetId));
    });
  });
}

/** Moves the named jobs (see carryIds): a result per distinct id. */
export async function moveJobIds(plan: MovePlan, jobIds: string[]): Promise<BulkResult[]> {
  const ids = [...new Set(jobIds)];
  const results: BulkResult[] = new Array(ids.length);
  await carryIds(plan, ids, (index, outcome) => {
    results[index] = outcome === 'moved' ? { jobId: ids[index]!, ok: true } : outcome;
  });
  return results;
}

/** The query form's action: move each matched id. */
export const moveEach = (plan: MovePlan) => (jobIds: string[]) => moveJobIds(plan, jobIds);

/** A move's part of a query cursor's fingerprint: a cursor continues moving to the same queue only. */
export const moveScope = (to: { connectionId: string; queueName: string; prefix: string }) =>
  `move:${JSON.stringify([to.connectionId, to.prefix, to.queueName])}`;

/**
 * One batch of a status-wide move: the `batchSize` oldest-listed jobs after `skip` (the ones
 * refused earlier stay at the head and are skipped), counted, not listed. Moved jobs leave the
 * status, so the next batch starts at the same place. A job another move took first is in
 * neither count: each job is counted by the move that moved it.
 */
export async function moveStatusBatch(
  plan: MovePlan,
  status: string,
  skip: number,
  batchSize: number,
): Promise<{ moved: number; refused: number; more: boolean }> {
  const ids = await plan.source.queue.getRanges([status as 'failed'], skip, skip + batchSize - 1, true);
  let [moved, refused] = [0, 0];
  await carryIds(plan, [...new Set(ids)], (_, outcome) => {
    if (outcome === 'moved') moved++;
    else if (outcome.code !== 'NOT_FOUND') refused++;
  });
  return { moved, refused, more: ids.length === batchSize };
}
