import { jobCountKinds, type JobCountKind } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { figures, readQueueFigures } from './queue-figures.js';
import type { QueueRef } from './queue-key.js';

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

/** The sizes of the exported states, the finished totals BullMQ keeps in its metrics hashes, the oldest waiting job. */
const exportFigures = [
  ...exportedStates.map((state) => figures.count(countKindOfState[state])),
  figures.finishedTotal('completed'),
  figures.finishedTotal('failed'),
  figures.oldestWaitingAt(),
];

export interface ExportCounts {
  ref: QueueRef;
  counts: number[];
  completedTotal: number;
  failedTotal: number;
  /** Enqueue time (ms) of the oldest job in `wait` (BullMQ pushes new jobs on the left); 0 when none waits. */
  oldestWaitingAt: number;
}

/** Where each exported state's count sits in a tracked row (jobCountKinds order). */
const trackedAt = exportedStates.map((state) => jobCountKinds.indexOf(countKindOfState[state]));
/** The figures the tracked counts leave to the script: the finished totals and the oldest waiting job. */
const untrackedFigures = exportFigures.slice(exportedStates.length);

/**
 * What the Prometheus export says of each queue, in one script call for all
 * of `refs` (one per hash tag on a cluster). Callers pass a few hundred at a
 * time so that each call blocks the store only briefly. With the store's
 * tracked counts of `refs` (`trackedRows`, jobCountKinds order) the script
 * reads three figures a queue, not ten: at 100,000 queues the counts were
 * most of a scrape's store time (~25 ms a call of 500 queues on a loaded host).
 */
export async function readExportCounts(
  client: StoreClient,
  refs: QueueRef[],
  trackedRows?: readonly (readonly number[])[],
): Promise<ExportCounts[]> {
  const perCall = Math.max(1, refs.length);
  const { values } = await readQueueFigures(client, refs, trackedRows ? untrackedFigures : exportFigures, perCall);
  const states = exportedStates.length;
  return refs.map((ref, index) => {
    const own = values[index]!;
    if (trackedRows) {
      const row = trackedRows[index]!;
      const counts = trackedAt.map((at) => row[at]!);
      return { ref, counts, completedTotal: own[0]!, failedTotal: own[1]!, oldestWaitingAt: own[2]! };
    }
    return {
      ref,
      counts: own.slice(0, states),
      completedTotal: own[states]!,
      failedTotal: own[states + 1]!,
      oldestWaitingAt: own[states + 2]!,
    };
  });
}
