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

const targetIdOf = (plan: MovePlan, jobId: string) =>
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
 * ids alone, and only the jobs answered `rewrite` are read, rewritten and carried as full orders.
 * Elsewhere, or once the first call found most of its jobs' options naming a dropped key (a queue's
 * jobs tend to share a shape: a backoff's `delay` in every one), options are read a piece ahead
 * (optionsAhead) and rewritten call by call just before it is sent (the carrying script checks each
 * job's options against what was read: `changed`).
 */
export async function carryIds(plan: MovePlan, ids: string[], report: Reporter): Promise<void> {
  const starts = Array.from({ length: Math.ceil(ids.length / plan.callSize) }, (_, call) => call * plan.callSize);
  let options: ReturnType<typeof optionsAhead> | undefined;
  const byReadOptions = async (places: number[]) => {
    options ??= optionsAhead(ids, plan.source.readOpts, plan.callSize);
    const opts = await options(places[0]!, places.length);
    await carryOrders(plan, ordersOf(plan, ids, places, opts, report), report);
  };
  // The first call decides how the others go. In a move's first batch they wait for its answer (and go
  // the safe way if it failed); in later ones they go as the batch before found, while it looks again.
  const before = plan.byIdsServed?.last;
  let decide: (byIds: boolean) => void = () => undefined;
  const byIds =
    plan.carryPlain && before === undefined
      ? new Promise<boolean>((resolve) => (decide = resolve))
      : Promise.resolve(Boolean(plan.carryPlain && before));
  await eachInWindow(starts, plan.callsInFlight, async (start) => {
    const places = placesFrom(start, Math.min(plan.callSize, ids.length - start));
    if (start > 0 || !plan.carryPlain) {
      if (await byIds) await carryByIds(plan, ids, places, report);
      else await byReadOptions(places);
      return;
    }
    let rewritten = places.length;
    try {
      rewritten = await carryByIds(plan, ids, places, report);
    } finally {
      const served = rewritten * 2 <= places.length;
      if (plan.byIdsServed) plan.byIdsServed.last = served;
      decide(served);
    }
  });
}

/** One call by ids alone; the jobs answered `rewrite` then go as full orders. Answers how many did. */
async function carryByIds(plan: MovePlan, ids: string[], places: number[], report: Reporter): Promise<number> {
  const sent: Array<{ at: number; jobId: string; targetId: string }> = [];
  for (const at of places) {
    const refusal = numericKept(plan, ids[at]!);
    if (refusal) report(at, refusal);
    else sent.push({ at, jobId: ids[at]!, targetId: targetIdOf(plan, ids[at]!) });
  }
  if (sent.length === 0) return 0;
  const verdicts = await plan.carryPlain!(sent);
  const rewrite: number[] = [];
  sent.forEach((order, index) => {
    const verdict = verdicts[index]!;
    if (verdict === 'rewrite') rewrite.push(order.at);
    else report(order.at, outcomeOf(order, verdict));
  });
  if (rewrite.length === 0) return 0;
  const opts = await plan.source.readOpts(rewrite.map((at) => ids[at]!));
  await carryOrders(plan, ordersOf(plan, ids, rewrite, opts, report), report);
  return rewrite.length;
}
