import type { PurgeableStatus } from '../../contracts/queues.js';
import { callInWindow } from '../../server/tasks/call-window.js';
import type { CleanCallPlan } from './clean-calls.js';

/** Removes jobs of one status; the real one wraps BullMQ's clean, tests use a fake. */
export interface StatusCleaner {
  /** Removes up to `limit` jobs of `status`; returns their ids. */
  clean(status: PurgeableStatus, limit: number): Promise<string[]>;
  /** Removes up to `limit` jobs of `status` as `clean` does; how many (no ids to read: a task's purge). */
  cleanCount?(status: PurgeableStatus, limit: number): Promise<number>;
  /** How many jobs `status` still holds. */
  count(status: PurgeableStatus): Promise<number>;
}

/**
 * Removes up to `budget` jobs of `status` in clean calls of `plan.size`, with up
 * to `plan.inFlight` calls sent at once (callInWindow), until the budget is
 * spent or a call removes nothing. Each call's ids reach `onRemoved` in the
 * order the calls were sent; a call already sent when another came back empty
 * is still awaited and counted. Resolves true when a call removed nothing (the
 * status is emptied, as far as the clean can tell), false when the budget ran
 * out first.
 */
export function cleanUpTo(
  cleaner: StatusCleaner,
  status: PurgeableStatus,
  budget: number,
  plan: CleanCallPlan,
  onRemoved: (ids: string[]) => void,
): Promise<boolean> {
  return callInWindow(
    budget,
    plan,
    (size) => cleaner.clean(status, size),
    (ids) => ids.length === 0,
    onRemoved,
  );
}

/**
 * `cleanUpTo` for a caller that needs only how many jobs went (a purge task records counts): each call's
 * count reaches `onRemoved`. Uses the cleaner's `cleanCount` where it has one.
 */
export function countUpTo(
  cleaner: StatusCleaner,
  status: PurgeableStatus,
  budget: number,
  plan: CleanCallPlan,
  onRemoved: (count: number) => void,
): Promise<boolean> {
  const clean = cleaner.cleanCount
    ? (size: number) => cleaner.cleanCount!(status, size)
    : async (size: number) => (await cleaner.clean(status, size)).length;
  return callInWindow(budget, plan, clean, (count) => count === 0, onRemoved);
}
