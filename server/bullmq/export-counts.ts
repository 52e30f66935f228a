import { jobCountKinds, type JobCountKind } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { figures, readQueueFigures } from './queue-figures.js';
import type { QueueRef } from './queue-key.js';
import { baseOfKeyOfTypes, pausedColumn } from './tracked-count-reads.js';

/** The states BullMQ's exportPrometheusMetrics counts, in its order (getJobCounts() with no types). */
export const exportedStates = [
  'active',
  'completed',
  'delayed',
  'failed',
  'prioritized',
  'waiting',
  'waiting-children',
] as const;

/** The count each of those states is (`waiting-children` is the `waitingChildren` count). */
export const countKindOfState: Record<(typeof exportedStates)[number], JobCountKind> = {
  active: 'active',
  completed: 'completed',
  delayed: 'delayed',
  failed: 'failed',
  prioritized: 'prioritized',
  waiting: 'waiting',
  'waiting-children': 'waitingChildren',
};

/** The figures the tracked counts leave to the export: the finished totals and the oldest waiting job. */
const extraFigures = [figures.finishedTotal('completed'), figures.finishedTotal('failed'), figures.oldestWaitingAt()];

/** The sizes of the exported states, the finished totals BullMQ keeps in its metrics hashes, the oldest waiting job, the pause flag. */
const exportFigures = [
  ...exportedStates.map((state) => figures.count(countKindOfState[state])),
  ...extraFigures,
  figures.paused(),
];

export interface ExportCounts {
  ref: QueueRef;
  counts: number[];
  completedTotal: number;
  failedTotal: number;
  /** Enqueue time (ms) of the oldest job in `wait` (BullMQ pushes new jobs on the left); 0 when none waits. */
  oldestWaitingAt: number;
  /** 1 when the queue is paused, else 0. */
  paused: number;
}

/** Where each exported state's count sits in a tracked row (jobCountKinds order). */
export const trackedAt = exportedStates.map((state) => jobCountKinds.indexOf(countKindOfState[state]));

/** Figures of an extras row (extraFigures order): the count tracker's export table keeps them between scrapes. */
export const extraColumns = extraFigures.length;
/** Keys the extras are read from: a write to one changes the queue's extras row (the oldest job only moves when `wait` does). */
const extraKeyTypes = [...new Set(extraFigures.flatMap((figure) => figure.types))];
export const baseOfExtraKey = (key: string): string | undefined => baseOfKeyOfTypes(key, extraKeyTypes);

/** Each queue's extras row (finished totals, oldest waiting job), by the figures script in one call for `refs`. */
export async function readExportExtras(client: StoreClient, refs: readonly QueueRef[]): Promise<number[][]> {
  return (await readQueueFigures(client, refs, extraFigures, Math.max(1, refs.length))).values;
}

/**
 * What the Prometheus export says of each queue, in one script call for all
 * of `refs` (one per hash tag on a cluster). Callers pass a few hundred at a
 * time so that each call blocks the store only briefly. With the store's
 * tracked rows of `refs` (`trackedRows`: jobCountKinds order, the pause flag) the script
 * reads three figures a queue, not eleven: at 100,000 queues the counts were
 * most of a scrape's store time (~25 ms a call of 500 queues on a loaded host).
 */
export async function readExportCounts(
  client: StoreClient,
  refs: QueueRef[],
  trackedRows?: readonly (readonly number[])[],
): Promise<ExportCounts[]> {
  const perCall = Math.max(1, refs.length);
  const { values } = await readQueueFigures(client, refs, trackedRows ? extraFigures : exportFigures, perCall);
  const states = exportedStates.length;
  return refs.map((ref, index) => {
    const own = values[index]!;
    if (trackedRows) {
      const row = trackedRows[index]!;
      const counts = trackedAt.map((at) => row[at]!);
      const paused = row[pausedColumn]!;
      return { ref, counts, completedTotal: own[0]!, failedTotal: own[1]!, oldestWaitingAt: own[2]!, paused };
    }
    return {
      ref,
      counts: own.slice(0, states),
      completedTotal: own[states]!,
      failedTotal: own[states + 1]!,
      oldestWaitingAt: own[states + 2]!,
      paused: own[states + 3]!,
    };
  });
}
