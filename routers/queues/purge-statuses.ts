import { purgeableStatuses, type PurgeableStatus, type PurgeSelector } from '../../contracts/queues.js';
import { AppError } from '../../contracts/app-error.js';
import { cleanCallPlan } from './clean-calls.js';
import { cleanUpTo, type StatusCleaner } from './clean-up-to.js';
import { countingMidway } from '../../server/stores/store-errors.js';

/** The spec's limits: batch size, batches per status, and the size of the id sample. */
export const purgeLimits = { batchSize: 1000, maxBatchesPerStatus: 500, sampleSize: 100 };
export type PurgeLimits = typeof purgeLimits;

/** De-duplicates and expands `all`; statuses come out in the canonical order. */
export function expandSelectors(selectors: PurgeSelector[]): PurgeableStatus[] {
  const wanted = new Set<PurgeSelector>(selectors);
  return purgeableStatuses.filter((status) => wanted.has('all') || wanted.has(status));
}

export interface PurgeProgress {
  statusesPurged: PurgeableStatus[];
  totalRemoved: number;
  removedByStatus: Partial<Record<PurgeableStatus, number>>;
  removedJobIdsSample: string[];
}

/**
 * Empties each status until a clean call removes nothing (BullMQ's clean
 * skips jobs it must keep, e.g. active jobs a worker holds the lock of, so
 * "removed fewer than asked" does not yet mean empty). A status gets at most
 * `maxBatchesPerStatus` batches' worth of jobs (sent as `cleanCallPlan` says:
 * finished sets in calls of 250, two in flight); one that still holds jobs
 * after that stops the purge with 409 PURGE_CAP_REACHED, naming it and what
 * was removed so far.
 */
export async function purgeStatuses({
  cleaner,
  statuses,
  limits = purgeLimits,
}: {
  cleaner: StatusCleaner;
  statuses: PurgeableStatus[];
  limits?: PurgeLimits;
}): Promise<PurgeProgress> {
  const progress: PurgeProgress = { statusesPurged: [], totalRemoved: 0, removedByStatus: {}, removedJobIdsSample: [] };
  for (const status of statuses) {
    progress.removedByStatus[status] = 0;
    const record = (ids: string[]) => {
      progress.removedByStatus[status]! += ids.length;
      progress.totalRemoved += ids.length;
      const room = limits.sampleSize - progress.removedJobIdsSample.length;
      if (room > 0) progress.removedJobIdsSample.push(...ids.slice(0, room).map(String));
    };
    const budget = limits.maxBatchesPerStatus * limits.batchSize;
    // A store fault answers 503 saying what was removed before it.
    const reached = () => ({ removedSoFar: progress.totalRemoved, removedByStatus: { ...progress.removedByStatus } });
    const emptied = await countingMidway(reached, () =>
      cleanUpTo(cleaner, status, budget, cleanCallPlan(status, limits.batchSize), record),
    );
    if (!emptied && (await cleaner.count(status)) > 0) throw capReached(status, limits, progress);
    progress.statusesPurged.push(status);
  }
  return progress;
}

function capReached(status: PurgeableStatus, limits: PurgeLimits, progress: PurgeProgress): AppError {
  return new AppError(
    'PURGE_CAP_REACHED',
    `Purge stopped: status "${status}" still holds jobs after ${limits.maxBatchesPerStatus} batches of ${limits.batchSize}; ` +
      `${progress.totalRemoved} jobs were removed so far. Run the purge again to continue.`,
    {
      status,
      removedSoFar: progress.totalRemoved,
      removedByStatus: progress.removedByStatus,
      statusesPurged: progress.statusesPurged,
      removedJobIdsSample: progress.removedJobIdsSample,
    },
  );
}
