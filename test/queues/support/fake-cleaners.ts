import { expect } from 'vitest';
import { purgeableStatuses, type PurgeableStatus } from '../../../contracts/queues.js';
import { AppError } from '../../../contracts/app-error.js';
import type { StatusCleaner } from '../../../routers/queues/clean-up-to.js';

// In-memory StatusCleaners for the purgeStatuses unit tests (test/queues/purge-statuses.test.ts).

/** A cleaner over in-memory statuses; `kept` jobs are never removable (like locked active jobs). */
export function fakeCleaner(
  jobs: Partial<Record<PurgeableStatus, number>>,
  kept: Partial<Record<PurgeableStatus, number>> = {},
) {
  const remaining = new Map<PurgeableStatus, string[]>(
    purgeableStatuses.map((status) => [status, Array.from({ length: jobs[status] ?? 0 }, (_, i) => `${status}-${i}`)]),
  );
  const calls: Array<{ status: PurgeableStatus; limit: number; inFlight: number }> = [];
  let inFlight = 0;
  const cleaner: StatusCleaner = {
    async clean(status, limit) {
      calls.push({ status, limit, inFlight: ++inFlight });
      const ids = remaining.get(status)!.splice(0, limit);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return ids;
    },
    async count(status) {
      return remaining.get(status)!.length + (kept[status] ?? 0);
    },
  };
  return { cleaner, calls, remaining };
}

/** A status that never empties: every call removes all it may. */
export function endlessCleaner(): StatusCleaner & { batches: number } {
  let next = 0;
  const cleaner = {
    batches: 0,
    async clean(_status: PurgeableStatus, limit: number) {
      cleaner.batches += 1;
      return Array.from({ length: limit }, () => String(next++));
    },
    async count() {
      return 1;
    },
  };
  return cleaner;
}

export async function capError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
