import { z } from 'zod';
import { isoTime } from './times.js';
import { databaseText } from './database-text.js';
import { connectionParams, queueParams } from './params.js';

/** A date (midnight UTC) or a date-time with offset. */
const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

const historyRange = {
  from: instant.optional().describe('Start of the range (ISO 8601 date or date-time); default 6 hours before `to`.'),
  to: instant.optional().describe('End of the range (ISO 8601); default now.'),
  points: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(120)
    .describe('Most points answered (≤ 500); samples are merged into steps of equal length.'),
};

export const connectionHistoryInput = connectionParams.extend(historyRange);
export const queueHistoryInput = queueParams.extend({
  // History is read from the database by queue name: a NUL would fail the query (500).
  queueName: databaseText().min(1).max(1000).describe('Queue name, percent-encoded in REST paths.'),
  ...historyRange,
  prefix: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Prefix of the queue; default: the prefix its newest sample has.'),
});

const queueFigures = {
  waiting: z.number().int().describe('Waiting jobs (wait + prioritized) at the end of the step.'),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int().describe('Jobs in the failed set at the end of the step.'),
  completed: z.number().int().describe('Jobs in the completed set at the end of the step.'),
  completedDelta: z.number().int().describe('Jobs that completed during the step.'),
  failedDelta: z.number().int().describe('Jobs that failed during the step.'),
  oldestWaitingSeconds: z.number().int().describe('Age of the oldest waiting job; the worst of the step.'),
  workers: z.number().int().describe('Worker connections at the end of the step.'),
};

const percentiles = (what: string) =>
  z
    .object({ p50: z.number().int(), p95: z.number().int(), p99: z.number().int() })
    .nullable()
    .describe(
      `${what} in milliseconds, p50/p95/p99 of the jobs measured (each the worst sample's of the step); null when none finished.`,
    );

/** Latency of a queue's step: what the sampler measured of the jobs that finished (see docs/api.md, History). */
const queueLatency = {
  latencyJobs: z
    .number()
    .int()
    .describe(
      'Finished jobs measured in the step: the newest finished since the previous sample, at most 100 per sample.',
    ),
  processingMs: percentiles('Processing time (finishedOn − processedOn)'),
  waitMs: percentiles(
    'Wait time (processedOn − timestamp: a delay the job was given, and earlier attempts, count as waiting)',
  ),
};

export const queueHistoryPointSchema = z
  .object({
    at: isoTime().describe('Start of the step (ISO 8601).'),
    ...queueFigures,
    paused: z.boolean(),
    ...queueLatency,
  })
  .meta({ id: 'QueueHistoryPoint' });

export const connectionHistoryPointSchema = z
  .object({
    at: isoTime().describe('Start of the step (ISO 8601).'),
    ...queueFigures,
    paused: z.number().int().describe('Paused queues at the end of the step.'),
    queues: z.number().int().describe('Queues sampled.'),
    up: z.boolean().describe('Whether the store answered every sample of the step.'),
    usedMemory: z.number().int().nullable(),
    maxMemory: z.number().int().nullable().describe('maxmemory (0: no limit).'),
    clients: z.number().int().nullable(),
    opsPerSecond: z.number().int().nullable(),
  })
  .meta({ id: 'ConnectionHistoryPoint' });

const historyPage = <T extends z.ZodType>(point: T) =>
  z.object({
    from: isoTime(),
    to: isoTime(),
    stepSeconds: z
      .number()
      .int()
      .describe('Length of each step: the sample interval, or more when the range holds more than `points` samples.'),
    points: z.array(point).describe('Oldest first; steps without a sample are left out.'),
  });

export const queueHistorySchema = historyPage(queueHistoryPointSchema);
export const connectionHistorySchema = historyPage(connectionHistoryPointSchema);

export type QueueHistory = z.infer<typeof queueHistorySchema>;
export type ConnectionHistory = z.infer<typeof connectionHistorySchema>;
