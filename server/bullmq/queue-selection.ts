import { jobCountKinds, type JobCountKind, type JobCounts, type QueueState } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { figures, keeping, readQueueFigures, type QueueFigure } from './queue-figures.js';
import type { QueueRef } from './queue-key.js';
import { listQueuesPerCall } from './queue-states.js';
import { pausedColumn } from './tracked-count-reads.js';

/** What decides whether a queue is in a state: figures, and the test of their values (docs/api.md, "Queues"). */
interface StateTest {
  read: QueueFigure[];
  holds: (values: number[]) => boolean;
}

/** Statuses holding jobs still to run, the likeliest non-empty first: a queue with none of them is idle. */
const toRun = ['waiting', 'active', 'delayed', 'prioritized', 'paused'] as const;

const stateTests: Record<QueueState, StateTest> = {
  paused: { read: [figures.paused()], holds: ([flag]) => flag === 1 },
  running: { read: [figures.paused()], holds: ([flag]) => flag === 0 },
  failing: { read: [figures.count('failed')], holds: ([failed]) => failed! > 0 },
  // EXISTS instead of counts, stopping at the first key found: a busy queue costs one lookup, an idle one five.
  idle: { read: [figures.anyJob(toRun)], holds: ([any]) => any === 0 },
};

/** With totals every count is read anyway: idle is decided from them, without looking at the same keys twice. */
const idleFromCounts: StateTest = {
  read: toRun.map(figures.count),
  holds: (counts) => counts.every((count) => count === 0),
};

export interface SelectionQuery {
  state?: QueueState | undefined;
  /** The count the caller sorts by: read for every selected queue. */
  sortBy?: JobCountKind | undefined;
  /** Sum every count over all of `refs`. */
  totals: boolean;
}

export interface SelectedQueue {
  ref: QueueRef;
  /** Its `sortBy` count (0 without one). */
  count: number;
}

export interface Selection {
  /** The queues of `refs` in the state (all of them without one), in `refs` order. */
  selected: SelectedQueue[];
  totals?: JobCounts;
}

const sameFigure = (a: QueueFigure, b: QueueFigure) =>
  a.operation === b.operation && a.argument === b.argument && a.types.join() === b.types.join();

/** Asks for a figure once: a count both summed and needed per queue (sorting by it) is read once, kept as `both`. */
function addFigure(read: QueueFigure[], wanted: QueueFigure): number {
  const at = read.findIndex((known) => sameFigure(known, wanted));
  if (at < 0) return read.push(wanted) - 1;
  if (read[at]!.keep !== wanted.keep) read[at] = keeping('both', read[at]!);
  return at;
}

/**
 * The queues of `refs` in `state`, each with its `sortBy` count, and the
 * `totals` over all of `refs`: every figure this needs in the same script
 * calls (one per 1,000 queues, all sent at once), as a sort by a count
 * alone costs. Nothing is read when none is asked for.
 */
export async function selectQueues(client: StoreClient, refs: QueueRef[], query: SelectionQuery): Promise<Selection> {
  if (!query.state && !query.sortBy && !query.totals) return { selected: refs.map((ref) => ({ ref, count: 0 })) };
  const read: QueueFigure[] = [];
  const totalAt = query.totals ? jobCountKinds.map((kind) => addFigure(read, keeping('sum', figures.count(kind)))) : [];
  const test =
    query.state === 'idle' && query.totals ? idleFromCounts : query.state ? stateTests[query.state] : undefined;
  const stateAt = test ? test.read.map((figure) => addFigure(read, figure)) : [];
  const sortAt = query.sortBy ? addFigure(read, figures.count(query.sortBy)) : -1;
  const { values, sums } = await readQueueFigures(client, refs, read, listQueuesPerCall);
  const selected: SelectedQueue[] = [];
  refs.forEach((ref, index) => {
    const own = values[index]!;
    if (!test || test.holds(stateAt.map((at) => own[at]!)))
      selected.push({ ref, count: sortAt < 0 ? 0 : own[sortAt]! });
  });
  if (!query.totals) return { selected };
  return {
    selected,
    totals: Object.fromEntries(jobCountKinds.map((kind, k) => [kind, sums[totalAt[k]!]!])) as JobCounts,
  };
}

/** The eight counts summed over every queue of `refs` (a background recount of the list's totals). */
export async function countTotals(client: StoreClient, refs: QueueRef[]): Promise<JobCounts> {
  return (await selectQueues(client, refs, { totals: true })).totals!;
}

const countAt = (kind: JobCountKind) => jobCountKinds.indexOf(kind);
const toRunAt = toRun.map(countAt);
const failedAt = countAt('failed');

/** The tests of the states a tracked row decides: the eight counts (jobCountKinds order), then the pause flag. */
const testsOnCounts: Partial<Record<QueueState, (row: readonly number[]) => boolean>> = {
  // The tests of idleFromCounts and stateTests.failing, without an array a row (run on every tracked queue).
  idle: (row) => toRunAt.every((at) => row[at] === 0),
  failing: (row) => row[failedAt]! > 0,
  paused: (row) => row[pausedColumn] === 1,
  running: (row) => row[pausedColumn] === 0,
};

/** States a tracked row decides (every state: the pause flag is tracked beside the counts). */
export const countedStates: ReadonlySet<QueueState> = new Set(Object.keys(testsOnCounts) as QueueState[]);

/**
 * selectQueues from counts already known (the tracked rows: jobCountKinds
 * order then the pause flag, one per queue of the list): a state of
 * countedStates and a count sort read straight from the rows, by index (no
 * object a queue: at 100,000 queues those cost more than the page).
 */
export function countsByIndex(
  rows: readonly (readonly number[])[],
  query: Omit<SelectionQuery, 'totals'>,
): { length: number; countOf: (i: number) => number; keeps?: ((i: number) => boolean) | undefined } {
  const sortAt = query.sortBy ? countAt(query.sortBy) : -1;
  const holds = query.state ? testsOnCounts[query.state] : undefined;
  if (query.state && !holds) throw new Error(`state ${query.state} is not decided by counts`);
  return {
    length: rows.length,
    countOf: sortAt < 0 ? () => 0 : (i) => rows[i]![sortAt]!,
    keeps: holds && ((i) => holds(rows[i]!)),
  };
}
