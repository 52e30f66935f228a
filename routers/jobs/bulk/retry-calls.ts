import type { Queue } from 'bullmq';
import { callInWindow, type CallWindow } from '../../../server/tasks/call-window.js';

/**
 * Jobs per retry script call of a task: BullMQ's moveJobsToWait spends ~5–10 µs of Redis a job (an HDEL, an
 * HGET and an XADD each), so 250 hold Redis ~2 ms a call where 1,000 held it ~5–10 ms, and other clients'
 * commands (a PING, a worker's fetch) wait at most that long behind one.
 */
export const retryCallSize = 250;

/**
 * Retries up to `budget` jobs of `status` finished before `before`, in calls of
 * at most `window.size` with up to `window.inFlight` sent at once (callInWindow:
 * each call takes the oldest jobs still there, so two never take the same),
 * stopping once a call retries nothing more (Redis answers 0 when it found fewer
 * than it asked for, PostgreSQL the number it retried).
 */
export async function retryInCalls(
  queue: Queue,
  status: 'failed' | 'completed',
  before: number,
  budget: number,
  window: CallWindow = { size: retryCallSize, inFlight: 1 },
): Promise<void> {
  await callInWindow(
    budget,
    window,
    (size) => queue.backend.retryFinishedJobs(status, size, before),
    (answer) => answer === 0,
  );
}
