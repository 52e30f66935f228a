import type { Queue } from 'bullmq';
import type { BulkResult } from '../../contracts/job-actions.js';
import type { StatusMove } from '../../server/bullmq/move-from-status.js';
import type { PlainOrder, PlainVerdict } from '../../server/bullmq/move-plain.js';
import type { MoveOrder, MoveVerdict } from '../../server/bullmq/move-within-store.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { carryIds } from './carry-ids.js';
import { moveStatusByPicks, type StatusBatch } from './move-status-picks.js';

export { movedJobId, movedOpts } from './moved-job.js';

/** Carries orders from the source to the target (within one store, or across two with a journal): one verdict per order. */
export type Carrier = (orders: MoveOrder[]) => Promise<MoveVerdict[]>;

/** A move's two ends and how jobs cross between them. */
export interface MovePlan {
  source: { ref: QueueRef; queue: Queue; readOpts(jobIds: string[]): Promise<Array<string | null>> };
  target: { ref: QueueRef; keepIds: boolean };
  carry: Carrier;
  /** Where the store can make a copy's options itself: carries ids alone (`rewrite`: the service must). */
  carryPlain?: (orders: PlainOrder[]) => Promise<PlainVerdict[]>;
  /** Where the store picks a status's jobs itself: the status-wide move of `status` (see moveStatusByPicks). */
  statusMove?: (status: string) => StatusMove | undefined;
  /** Jobs a carry takes, and carries sent at once (more than one only where carries of disjoint jobs may overlap). */
  callSize: number;
  callsInFlight: number;
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

/** Lets go of a status-wide move's place in its status, once the move is over. */
export const endStatusMove = (plan: MovePlan, status: string) => plan.statusMove?.(status)?.forget();

/** The query form's action: move each matched id. */
export const moveEach = (plan: MovePlan) => (jobIds: string[]) => moveJobIds(plan, jobIds);

/** A move's part of a query cursor's fingerprint: a cursor continues moving to the same queue only. */
export const moveScope = (to: { connectionId: string; queueName: string; prefix: string }) =>
  `move:${JSON.stringify([to.connectionId, to.prefix, to.queueName])}`;

/**
 * One batch of a status-wide move: the `batchSize` oldest-listed jobs after `skip` (the ones
 * refused earlier stay at the head and are skipped), counted, not listed. Moved jobs leave the
 * status, so the next batch starts at the same place. A job another move took first is in
 * neither count: each job is counted by the move that moved it. Where the store picks the jobs
 * itself (plan.statusMove), it keeps the move's place, and `skip` is where a move without one starts.
 */
export async function moveStatusBatch(
  plan: MovePlan,
  status: string,
  skip: number,
  batchSize: number,
): Promise<StatusBatch> {
  const picks = plan.statusMove?.(status);
  if (picks) return moveStatusByPicks(plan, picks, skip, batchSize);
  const ids = await plan.source.queue.getRanges([status as 'failed'], skip, skip + batchSize - 1, true);
  let [moved, refused] = [0, 0];
  await carryIds(plan, [...new Set(ids)], (_, outcome) => {
    if (outcome === 'moved') moved++;
    else if (outcome.code !== 'NOT_FOUND') refused++;
  });
  return { moved, refused, more: ids.length === batchSize };
}
