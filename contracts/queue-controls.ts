import { z } from 'zod';
import { strictNumber } from './strict-number.js';
import { queueTarget } from './queue-detail.js';

/** A queue's throughput controls, as the queue-limit routes answer them. */
export const queueLimitsSchema = z
  .object({
    globalConcurrency: z
      .number()
      .int()
      .nullable()
      .describe('Jobs processed at once across every worker; null: no limit.'),
    globalRateLimit: z
      .object({ max: z.number().int(), durationMs: z.number().int() })
      .nullable()
      .describe('At most `max` jobs per `durationMs` across every worker; null: none.'),
    rateLimitedForMs: z.number().int().describe('Time left on a rate limit a worker tripped (0: none).'),
  })
  .meta({ id: 'QueueLimits' });
export type QueueLimits = z.infer<typeof queueLimitsSchema>;
export const globalConcurrencyInput = queueTarget.extend({
  concurrency: strictNumber(z.number().int().min(1).max(100_000)).describe(
    'Jobs processed at once across every worker of the queue.',
  ),
});
export const globalRateLimitInput = queueTarget.extend({
  max: strictNumber(z.number().int().min(1).max(1_000_000)).describe(
    'At most this many jobs per `durationMs`, across every worker.',
  ),
  durationMs: strictNumber(z.number().int().min(1).max(86_400_000)).describe(
    'The rate limit window in milliseconds (at most a day).',
  ),
});

export const pauseResultSchema = z
  .object({ success: z.literal(true), isPaused: z.boolean() })
  .meta({ id: 'PauseResult' });
