import type { PurgeableStatus } from '../../contracts/queues.js';
import type { CleanCallPlan } from './clean-calls.js';

/** Removes jobs of one status; the real one wraps BullMQ's clean, tests use a fake. */
export interface StatusCleaner {
  /** Removes up to `limit` jobs of `status`; returns their ids. */
  clean(status: PurgeableStatus, limit: number): Promise<string[]>;
  /** How many jobs `status` still holds. */
  count(status: PurgeableStatus): Promise<number>;
}

/**
 * Removes up to `budget` jobs of `status` in clean calls of `plan.size`, with up
 * to `plan.inFlight` calls sent at once, until the budget is spent or a call
 * removes nothing. Each call's ids reach `onRemoved` in the order the calls were
 * sent; a call already sent when another came back empty is still awaited and
 * counted. Resolves true when a call removed nothing (the status is emptied, as
 * far as the clean can tell), false when the budget ran out first.
 */
export async function cleanUpTo(
  cleaner: StatusCleaner,
  status: PurgeableStatus,
  budget: number,
  plan: CleanCallPlan,
  onRemoved: (ids: string[]) => void,
): Promise<boolean> {
  const sent: Array<Promise<string[]>> = [];
  let unsent = budget;
  let emptied = false;
  const send = () => {
    const size = Math.min(plan.size, unsent);
    unsent -= size;
    const call = cleaner.clean(status, size);
    // Awaited below in order; until then a rejection must not count as unhandled.
    call.catch(() => undefined);
    sent.push(call);
  };
  try {
    while (unsent > 0 && sent.length < plan.inFlight) send();
    while (sent.length > 0) {
      const ids = await sent[0]!;
      sent.shift();
      onRemoved(ids);
      if (ids.length === 0) emptied = true;
      if (!emptied && unsent > 0) send();
    }
  } catch (error) {
    // Nothing left running behind the error (a purge answering 5xx has stopped).
    await Promise.allSettled(sent);
    throw error;
  }
  return emptied;
}
