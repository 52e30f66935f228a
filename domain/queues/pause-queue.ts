import { resolveQueue, type QueueTarget } from './resolve-queue.js';

/** Pauses (or resumes) the queue globally: workers stop (or start again) taking its jobs. */
export async function setQueuePaused(target: QueueTarget & { paused: boolean }): Promise<{ success: true; isPaused: boolean }> {
  const { queue } = await resolveQueue(target);
  if (target.paused) await queue.pause();
  else await queue.resume();
  return { success: true, isPaused: await queue.isPaused() };
}
