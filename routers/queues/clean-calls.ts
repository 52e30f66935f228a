import type { PurgeableStatus } from '../../contracts/queues.js';
import type { CallWindow } from '../../server/tasks/call-window.js';

/** How a batch of BullMQ `clean(0, n, status)` goes to Redis: jobs per script call, and calls sent at once. */
export type CleanCallPlan = CallWindow;

/** Jobs per clean call on a finished set: ~12 µs of Redis a job, so ~3 ms a call rather than ~12 ms for 1,000. */
export const finishedSetCallSize = 250;

/**
 * BullMQ's clean of a finished set (`completed`, `failed`) removes every job its
 * ZRANGEBYSCORE reads (scores up to now, the first `n`) and skips none, so four
 * calls of 250 remove exactly the jobs one call of 1,000 would, while holding
 * Redis (one Lua call blocks every other client) a quarter as long. Two calls
 * (or the `inFlight` a task asks for) are kept in flight, so Redis starts the next one as soon as one ends instead
 * of waiting for the service to read the answer and send it. Redis still serves
 * other clients between the two: the second arrives while the first runs, and
 * is read in the next turn of its event loop, with theirs.
 *
 * The other statuses keep one call per batch, one at a time, as BullMQ's clean
 * does them: there it reads only the `n` jobs it looks at (the tail of a list,
 * the head of a sorted set) and may skip some (active jobs a worker holds the
 * lock of, job schedulers' next jobs), so a smaller call could end a purge
 * while removable jobs remain; and on a list it ends with an LREM over the
 * whole list, which every extra call would repeat.
 */
export function cleanCallPlan(status: PurgeableStatus, batchSize: number, inFlight = 2): CleanCallPlan {
  if (status === 'completed' || status === 'failed')
    return { size: Math.min(finishedSetCallSize, batchSize), inFlight: Math.max(2, inFlight) };
  return { size: batchSize, inFlight: 1 };
}
