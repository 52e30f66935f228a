import type { Queue } from 'bullmq';

/**
 * Jobs per retry script call of a task: BullMQ's moveJobsToWait spends ~10 µs of Redis a job (an HDEL, an
 * HGET and an XADD each), so 250 hold Redis ~3 ms a call where 1,000 held it ~12 ms, and other clients'
 * commands (a PING, a worker's fetch) wait at most that long behind one.
 */
export const retryCallSize = 250;

/**
 * Retries up to `budget` jobs of `status` finished before `before`, one call of at most `callSize` at a
 * time, stopping early when a call retries nothing more (Redis answers 0 when it found fewer than it
 * asked for, PostgreSQL the number it retried).
 */
export async function retryInCalls(
  queue: Queue,
  status: 'failed' | 'completed',
  before: number,
  budget: number,
  callSize = retryCallSize,
): Promise<void> {
  for (let unsent = budget; unsent > 0; ) {
    const size = Math.min(callSize, unsent);
    unsent -= size;
    if ((await queue.backend.retryFinishedJobs(status, size, before)) === 0) return;
  }
}
