import type { Queue } from 'bullmq';
import { moveAcrossStores } from '../../server/bullmq/move-across-stores.js';
import type { PlainOrder } from '../../server/bullmq/move-plain.js';
import { moveCallsInFlight, movesPerScript } from '../../server/bullmq/move-within-store.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { QueueStore } from '../../server/stores/queue-store.js';
import type { MovePlan } from './move-jobs.js';
import { movedJobId } from './moved-job.js';

export interface MoveEnds {
  sourceStore: QueueStore;
  source: { ref: QueueRef; queue: Queue };
  targetStore: QueueStore;
  target: QueueRef;
  keepIds: boolean;
  /** Who moves: a task's id (its resumed runs are the same mover), or a request's own id. */
  mover: string;
  /** Keep a tally of moved jobs (a task's total survives its crashes). */
  tallied: boolean;
}

/**
 * How jobs cross, as the stores' ends say (QueueStore.moveEnds, whatever their kind): within one
 * store that has a single-step path (a standalone Redis: one script copies and removes each job, and
 * a status-wide move's script picks the jobs itself);
 * otherwise (another store, another kind, a cluster) through the target's move journal. Either way
 * a task resumed after a crash neither loses nor doubles a job.
 */
export function planMove(ends: MoveEnds): MovePlan & { tally(): Promise<number> } {
  const { sourceStore, targetStore, source, target, mover } = ends;
  const sourceEnds = sourceStore.moveEnds();
  const within = sourceStore === targetStore ? sourceEnds.within?.(source.ref, target) : undefined;
  const from = { connectionId: sourceStore.connection.id, ref: source.ref };
  const targetEnd = targetStore.moveEnds().target(target, from);
  const sourceEnd = sourceEnds.source(source.ref);
  const counted = ends.tallied ? mover : '';
  const idPrefix = ends.keepIds ? '' : movedJobId(source.ref.name, '');
  return {
    source: { ref: source.ref, queue: source.queue, readOpts: (ids) => sourceEnd.readOpts(ids) },
    target: { ref: target, keepIds: ends.keepIds },
    carry: within
      ? (orders) => within.carry(orders, counted)
      : (orders) => moveAcrossStores({ source: sourceEnd, target: targetEnd, mover, tallied: ends.tallied }, orders),
    ...(within
      ? {
          carryPlain: (orders: PlainOrder[]) => within.carryPlain(orders, counted),
          statusMove: (status: string) => within.status(status, { mover, tallied: ends.tallied, idPrefix }),
        }
      : {}),
    // Within a store each call is one atomic script on disjoint jobs, so calls may overlap; across
    // stores a call is three steps under the journal, taken one call at a time.
    callSize: movesPerScript,
    callsInFlight: within ? moveCallsInFlight : 1,
    tally: () => targetEnd.tally(mover),
  };
}
