import type { PlainOrder, PlainVerdict } from './move-plain.js';
import type { StatusMove } from './move-from-status.js';
import type { MoveOrder, MoveVerdict } from './move-within-store.js';
import { movesPerScript } from './move-within-store.js';
import type { QueueRef } from './queue-key.js';

/** A job as read from the source, to be delivered as is (options are the order's `movedOpts`). */
export interface MovedJob {
  name: string;
  data: string;
  timestamp: string;
  priority: string;
  /** Attempts made and started ('' when none). */
  atm: string;
  ats: string;
  logs: string[];
}

export interface Parcel {
  order: MoveOrder;
  job: MovedJob;
}

/** A move's source store: says which jobs may leave (and reads them), then lets the delivered ones go. */
export interface MoveSource {
  /** Each job's options as stored (null when it is gone): what `changed` is judged against. */
  readOpts(jobIds: string[]): Promise<Array<string | null>>;
  inspect(orders: MoveOrder[]): Promise<Array<MoveVerdict | MovedJob>>;
  /** Removes each job unless a worker took it meanwhile (`moved`; `missing`: already gone; else why it stays). */
  release(orders: MoveOrder[]): Promise<MoveVerdict[]>;
}

/**
 * A move's target store. `deliver` consults its move journal first and writes the copy and the
 * journal entry naming `mover` in one atomic step: `delivered` (now, or by this mover before: never
 * added twice), `missing` (another move delivered it), or `taken` (another job holds the id).
 */
export interface MoveTarget {
  deliver(parcels: Parcel[], mover: string, tallied: boolean): Promise<Array<'delivered' | 'missing' | 'taken'>>;
  /** Takes back copies this mover delivered, each only while no worker has it yet (true: taken back). */
  recall(parcels: Parcel[], mover: string, tallied: boolean): Promise<boolean[]>;
  /** How many jobs `mover` delivered and kept here (a task's total, whatever crashes it survived). */
  tally(mover: string): Promise<number>;
}

/** Moves orders between two queues of one store in one atomic step each, counting them for `mover` ('' counts nothing). */
export type WithinStore = (orders: MoveOrder[], mover: string) => Promise<MoveVerdict[]>;

/** The same by ids alone, the store making each copy's options where it can (`rewrite` where the service must). */
export type WithinStorePlain = (orders: PlainOrder[], mover: string) => Promise<PlainVerdict[]>;

/** A status-wide move whose ids the store picks itself (undefined where the status is not one it takes). */
export type WithinStatus = (
  status: string,
  move: { mover: string; tallied: boolean; idPrefix: string },
) => StatusMove | undefined;

/**
 * A store's ends of a move (QueueStore.moveEnds), whatever its kind: a queue as the source, a queue
 * as the target of another queue's jobs (journaled per source connection and queue), and, where
 * the store has one, a single-step path between two of its own queues.
 */
export interface StoreMoveEnds {
  source(ref: QueueRef): MoveSource;
  target(ref: QueueRef, from: { connectionId: string; ref: QueueRef }): MoveTarget;
  within?(from: QueueRef, to: QueueRef): { carry: WithinStore; carryPlain: WithinStorePlain; status: WithinStatus };
}

export interface AcrossEnds {
  source: Pick<MoveSource, 'inspect' | 'release'>;
  target: Pick<MoveTarget, 'deliver' | 'recall'>;
  /** Names the move in the journal: a task's id (its resumed runs are the same mover). */
  mover: string;
  /** Count the jobs delivered in the mover's tally (tasks). */
  tallied?: boolean;
}

/**
 * Moves jobs between two stores (no atomic step spans both): inspect the source, deliver to the
 * target under its journal, then release the source. A crash anywhere leaves jobs the journal marks
 * delivered by this `mover`, which a resumed run only releases: nothing is added twice, whatever a
 * worker did with the copy. Store-agnostic: a store kind brings its MoveSource and MoveTarget.
 */
export async function moveAcrossStores(ends: AcrossEnds, orders: MoveOrder[]): Promise<MoveVerdict[]> {
  const verdicts: MoveVerdict[] = [];
  for (let start = 0; start < orders.length; start += movesPerScript)
    verdicts.push(...(await moveBatch(ends, orders.slice(start, start + movesPerScript))));
  return verdicts;
}

async function moveBatch(
  { source, target, mover, tallied = false }: AcrossEnds,
  orders: MoveOrder[],
): Promise<MoveVerdict[]> {
  const inspected = await source.inspect(orders);
  const verdicts: MoveVerdict[] = inspected.map((found) => (typeof found === 'string' ? found : 'moved'));
  const parcels = orders.flatMap((order, index) => {
    const job = inspected[index]!;
    return typeof job === 'string' ? [] : [{ order, job }];
  });
  if (parcels.length === 0) return verdicts;
  const delivered = await target.deliver(parcels, mover, tallied);
  // Delivered by this move (now or by the run that died), or by another: the source copy leaves.
  // Whatever the release finds (gone already: an earlier run released it), the job is in the target once.
  const leaving = parcels.filter((_, index) => delivered[index] !== 'taken');
  const released = await source.release(leaving.map(({ order }) => order));
  // A worker took the source copy between delivery and release: the target's copy is taken back while
  // no worker holds it yet, and the job stays in the source (only if both ran at once does it run twice).
  const stayed = leaving.filter(
    (parcel, index) =>
      delivered[parcels.indexOf(parcel)] === 'delivered' && !['moved', 'missing'].includes(released[index]!),
  );
  const recalled = await target.recall(stayed, mover, tallied);
  parcels.forEach(({ order }, index) => {
    const verdict = delivered[index]!;
    verdicts[orders.indexOf(order)] = verdict === 'delivered' ? 'moved' : verdict;
  });
  stayed.forEach((parcel, index) => {
    if (recalled[index]) verdicts[orders.indexOf(parcel.order)] = released[leaving.indexOf(parcel)]!;
  });
  return verdicts;
}
