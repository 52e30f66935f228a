import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';

/** Pauses (or resumes) the queue globally: workers stop (or start again) taking its jobs. */
export async function setQueuePaused({
  queue: { queue },
  paused,
}: {
  queue: ResolvedQueue;
  paused: boolean;
}): Promise<{ success: true; isPaused: boolean }> {
  if (paused) await queue.pause();
  else await queue.resume();
  return { success: true, isPaused: await queue.isPaused() };
}
