import type { BulkResult } from '../../contracts/job-actions.js';
import type { MoveOrder, MoveVerdict } from '../../server/bullmq/move-within-store.js';
import { eachInWindow } from '../../server/tasks/call-window.js';
import type { MovePlan } from './move-jobs.js';
import { movedJobId, movedOpts } from './moved-job.js';
import { refused, resultOf } from './move-results.js';
import { optionsAhead } from './options-ahead.js';

/** What became of one job of a move: moved, or the result of a job that stays where it was. */
type Outcome = 'moved' | BulkResult;

/** Takes each job's outcome by its place among the move's ids. */
type Reporter = (index: number, outcome: Outcome) => void;

export const targetIdOf = (plan: MovePlan, jobId: string) =>
  plan.target.keepIds ? jobId : movedJobId(plan.source.ref.name, jobId);

/** A job refused before anything is read: BullMQ does not accept a numeric id as a custom one. */
const numericKept = (plan: MovePlan, jobId: string) =>
  plan.target.keepIds && /^\d+$/.test(jobId)
    ? refused(
        jobId,
        'FAILED',
        `Job "${jobId}" has a numeric id, which BullMQ does not accept as a custom id; move it without keepIds`,
      )
    : undefined;

/** The orders of the jobs at `places` (their options as read); gone or refused ones are reported at once. */
function ordersOf(plan: MovePlan, ids: string[], places: number[], opts: Array<string | null>, report: Reporter) {
  const orders: Array<MoveOrder & { at: number }> = [];
  places.forEach((at, index) => {
    const [jobId, readOpts] = [ids[at]!, opts[index]];
    const targetId = targetIdOf(plan, jobId);
    const refusal = readOpts === null || readOpts === undefined ? resultOf(jobId, 'missing', targetId) : undefined;
    const early = refusal ?? numericKept(plan, jobId);
    if (early) report(at, early);
    else orders.push({ at, jobId, targetId, readOpts: readOpts!, movedOpts: movedOpts(readOpts!, targetId) });
  });
  return orders;
}

/** Carries full orders and reports their verdicts. */
async function carryOrders(plan: MovePlan, orders: Array<MoveOrder & { at: number }>, report: Reporter) {
  if (orders.length === 0) return;
  const verdicts = await plan.carry(orders);
  orders.forEach((order, index) => {
    report(order.at, outcomeOf(order, verdicts[index]!));
  });
}

const outcomeOf = (order: { jobId: string; targetId: string }, verdict: MoveVerdict): Outcome =>
  verdict === 'moved' ? verdict : resultOf(order.jobId, verdict, order.targetId);

const placesFrom = (start: number, count: number) => Array.from({ length: count }, (_, index) => start + index);

/**
 * Moves `ids` (distinct), each at most once whatever happens to the service (see the carriers),
 * reporting each job's outcome by its place in `ids`. Calls of `plan.callSize` jobs,
 * `plan.callsInFlight` at once, each next one sent as soon as one ends, so the store is not left
 * waiting between chunks. Where the store makes a copy's options itself (`carryPlain`), calls send
 * ids alone, and only the jobs answered `rewrite` (options not as BullMQ writes them) are read,
 * rewritten and carried as full orders. Elsewhere options are read a piece ahead (optionsAhead) and
 * rewritten call by call just before it is sent (the carrying script checks each job's options
 * against what was read: `changed`).
 */
export async function carryIds(plan: MovePlan, ids: string[], report: Reporter): Promise<void> {
  const starts = Array.from({ length: Math.ceil(ids.length / plan.callSize) }, (_, call) => call * plan.callSize);
  const options = plan.carryPlain ? undefined : optionsAhead(ids, plan.source.readOpts, plan.callSize);
  await eachInWindow(starts, plan.callsInFlight, async (start) => {
    const places = placesFrom(start, Math.min(plan.callSize, ids.length - start));
    if (!options) return carryByIds(plan, ids, places, report);
    const opts = await options(places[0]!, places.length);
    await carryOrders(plan, ordersOf(plan, ids, places, opts, report), report);
  });
}

/** One call by ids alone; the jobs answered `rewrite` then go as full orders. */
async function carryByIds(plan: MovePlan, ids: string[], places: number[], report: Reporter): Promise<void> {
  const sent: Array<{ at: number; jobId: string; targetId: string }> = [];
  for (const at of places) {
    const refusal = numericKept(plan, ids[at]!);
    if (refusal) report(at, refusal);
    else sent.push({ at, jobId: ids[at]!, targetId: targetIdOf(plan, ids[at]!) });
  }
  if (sent.length === 0) return;
  const verdicts = await plan.carryPlain!(sent);
  const rewrite: number[] = [];
  sent.forEach((order, index) => {
    const verdict = verdicts[index]!;
    if (verdict === 'rewrite') rewrite.push(order.at);
    else report(order.at, outcomeOf(order, verdict));
  });
  if (rewrite.length === 0) return;
  const opts = await plan.source.readOpts(rewrite.map((at) => ids[at]!));
  await carryOrders(plan, ordersOf(plan, ids, rewrite, opts, report), report);
}
