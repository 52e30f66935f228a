import type { Queue } from 'bullmq';
import type { QueueLimits } from '../../contracts/queues.js';

/** The queue's global concurrency, global rate limit and a tripped limiter's remaining time. */
export async function readQueueLimits(queue: Queue): Promise<QueueLimits> {
  const [globalConcurrency, rateLimit, ttl] = await Promise.all([
    queue.getGlobalConcurrency(),
    queue.getGlobalRateLimit(),
    queue.getRateLimitTtl(),
  ]);
  return {
    globalConcurrency: globalConcurrency ?? null,
    globalRateLimit: rateLimit ? { max: Number(rateLimit.max), durationMs: Number(rateLimit.duration) } : null,
    rateLimitedForMs: Math.max(0, ttl),
  };
}
