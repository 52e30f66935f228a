import { z } from 'zod';
import { failureWindowPattern } from './job-failures.js';
import { queueParams } from './params.js';
import { epochMs, isoTime } from './times.js';

/** Newest finished jobs of each set (completed, failed) one insights request reads at most. */
export const maxInsightJobsPerSet = 5000;
/** Entries in each list of the answer. */
export const insightListLength = 10;

export const queueInsightsInput = queueParams.extend({
  window: z
    .string()
    .regex(failureWindowPattern, 'a span such as 30m, 1h or 7d')
    .default('1h')
    .describe(
      'The jobs that finished within this span of now, in minutes, hours or days (`30m`, `1h`, `7d`). Default `1h`.',
    ),
});

const percentiles = z.object({ p50: z.number().int(), p95: z.number().int(), p99: z.number().int() }).nullable();
const setCounts = z.object({
  inWindow: z.number().int().describe('Jobs of the set that finished in the window.'),
  examined: z.number().int().describe(`Of those, the newest ones read (at most ${maxInsightJobsPerSet}).`),
});

export const queueInsightsSchema = z
  .object({
    queueName: z.string(),
    prefix: z.string(),
    from: isoTime().describe('Start of the window.'),
    to: isoTime().describe('End of the window (now).'),
    completed: setCounts,
    failed: setCounts,
    exact: z
      .boolean()
      .describe(
        'Whether every job that finished in the window was read; otherwise the lists and percentiles are those of the newest ones.',
      ),
    topFailingNames: z
      .array(
        z.object({
          name: z.string(),
          failed: z.number().int(),
          completed: z.number().int(),
          failureRate: z.number().describe('failed / (failed + completed), 0..1, among the jobs read.'),
        }),
      )
      .describe(`Job names with the most failures in the window, most first (at most ${insightListLength}).`),
    slowestJobs: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          state: z.enum(['completed', 'failed']),
          processingMs: z.number().int().describe('finishedOn − processedOn.'),
          waitMs: z.number().int().nullable().describe('processedOn − timestamp.'),
          finishedOn: epochMs('When it finished.'),
        }),
      )
      .describe(`The jobs that took longest to process, slowest first (at most ${insightListLength}).`),
    processingMs: percentiles.describe('p50/p95/p99 processing time (ms) of the jobs read; null when none.'),
    waitMs: percentiles.describe('p50/p95/p99 wait time (ms) of the jobs read; null when none.'),
  })
  .meta({ id: 'QueueInsights' });

export type QueueInsights = z.infer<typeof queueInsightsSchema>;
