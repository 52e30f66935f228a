import { z } from 'zod';
import { queryBoolean } from './query-boolean.js';
import { warningsSchema } from './introspection.js';
import { connectionParams, queueParams } from './params.js';
import { pageInfo, pageQuery } from './pagination.js';

const prioritiesPattern = /^[1-9]\d{0,6}(,[1-9]\d{0,6})*$/;

/** Query parameters shared by the queue and connection metrics routes. */
const metricsQuery = z.object({
  windowMinutes: z
    .number()
    .int()
    .min(1)
    .max(43_200)
    .optional()
    .describe('Convenience range: the newest N one-minute points (sets `end` to start + N - 1). At most 30 days.'),
  priorities: z
    .string()
    .max(400)
    .regex(prioritiesPattern, 'must be a comma-separated list of positive integers')
    .optional()
    .describe('Comma-separated priorities whose waiting job counts are sampled, e.g. `1,2,5`.'),
  includePrometheus: queryBoolean()
    .optional()
    .describe("`1`/`true` adds the queue library's native Prometheus text export."),
});

const rangeQuery = z.object({
  start: z.number().int().min(0).optional().describe('Metrics start index; 0 (default) is the newest point.'),
  end: z.number().int().min(-1).optional().describe('Metrics end index; -1 (default) is the oldest available.'),
});

/** 400 naming `end` when it is before `start` (other than -1, "the oldest"). */
function endNotBeforeStart(input: { start?: number | undefined; end?: number | undefined }, ctx: z.RefinementCtx) {
  const start = input.start ?? 0;
  if (input.end !== undefined && input.end !== -1 && input.end < start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: `must be -1 or at least start (${start})` });
  }
}

export const queueMetricsInput = queueParams
  .extend(metricsQuery.shape)
  .extend(rangeQuery.shape)
  .superRefine(endNotBeforeStart);

/** Without `limit` or `cursor`, `queues` holds every queue up to this many (beyond, ~2.5 MB of JSON a 10,000). */
export const allQueuesUpTo = 10_000;
/** The most queue summaries of one page, and the page a connection of more than allQueuesUpTo queues answers by default. */
export const maxMetricsPage = 1000;

export const connectionMetricsInput = connectionParams.extend(metricsQuery.shape).extend({
  detailed: queryBoolean()
    .optional()
    .describe('`1`/`true`: add the full native payload of every queue (of the page, when `queues` is paged).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(maxMetricsPage)
    .optional()
    .describe(
      `Queue summaries per page, at most ${maxMetricsPage}: \`queues\` is then one page (in name order) and the page fields (\`nextCursor\`, \`total\`, …) say which. Without \`limit\` or \`cursor\`, \`queues\` holds every queue up to ${allQueuesUpTo}, above that the first ${maxMetricsPage}. \`totals\` are always every queue's.`,
    ),
  cursor: pageQuery.shape.cursor,
});

const metricsSeriesSchema = z
  .object({
    data: z.array(z.number()).describe('Jobs per one-minute point, newest first.'),
    count: z.number().int().describe('Points available in total.'),
    meta: z
      .object({ count: z.number(), prevTS: z.number(), prevCount: z.number() })
      .describe("BullMQ's running totals."),
  })
  .nullable();

export const jobCountsSchema = z
  .record(z.string(), z.number().int())
  .describe(
    "Native job counts, keyed by BullMQ's own state names as the spec's native telemetry fixes them (active, completed, delayed, failed, prioritized, waiting, waiting-children; elsewhere the API spells it waitingChildren).",
  );

export const queueMetricsSchema = z
  .object({
    queueName: z.string(),
    prefix: z.string(),
    range: z.object({ start: z.number().int(), end: z.number().int(), windowMinutes: z.number().int().nullable() }),
    completed: metricsSeriesSchema,
    failed: metricsSeriesSchema,
    state: z.object({
      isPaused: z.boolean().nullable(),
      isMaxed: z.boolean().nullable(),
      workers: z.number().int().nullable().describe('Connected workers; null when CLIENT LIST is not allowed.'),
      schedulers: z.number().int().nullable(),
    }),
    counts: jobCountsSchema.nullable(),
    meta: z
      .object({
        concurrency: z.number().nullable(),
        max: z.number().nullable(),
        duration: z.number().nullable(),
        maxLenEvents: z.number().nullable(),
        paused: z.boolean(),
        version: z.string().nullable(),
      })
      .nullable(),
    rateLimit: z.object({
      ttlMs: z
        .number()
        .nullable()
        .describe('Remaining rate-limit time as BullMQ reports it (-2: no limiter key, -1: no expiry).'),
      globalConcurrency: z.number().nullable(),
      globalRateLimit: z.object({ max: z.number(), duration: z.number() }).nullable(),
    }),
    priorityCounts: z.record(z.string(), z.number().int()).describe('Waiting jobs per requested priority.'),
    prometheus: z.string().optional().describe('Native Prometheus text, when includePrometheus was set.'),
    warnings: warningsSchema,
  })
  .meta({ id: 'QueueMetrics' });

const rateSchema = z.object({ total: z.number(), perMinute: z.number() });

/** BullMQ's state names of the connection summary (a fixed object: zod parses 10,000 of them in half the time of records). */
const summaryStates = [
  'active',
  'completed',
  'delayed',
  'failed',
  'prioritized',
  'waiting',
  'waiting-children',
] as const;
const summaryCountsSchema = z
  .object(
    Object.fromEntries(summaryStates.map((state) => [state, z.number().int()])) as Record<
      (typeof summaryStates)[number],
      z.ZodNumber
    >,
  )
  .describe(
    "Job counts keyed by BullMQ's own state names (elsewhere the API spells waiting-children waitingChildren).",
  );

export const queueSummarySchema = z.object({
  queueName: z.string(),
  prefix: z.string(),
  isPaused: z.boolean(),
  counts: summaryCountsSchema,
  rates: z
    .object({ completed: rateSchema, failed: rateSchema })
    .describe('From the native one-minute metrics over windowMinutes.'),
});

export const storeFactsSchema = z.object({
  mode: z.enum(['standalone', 'cluster']),
  nodes: z.number().int(),
  version: z.string().nullable(),
  usedMemoryBytes: z.number().nullable().describe('Summed over the masters of a cluster.'),
  connectedClients: z.number().nullable().describe('Summed over the masters of a cluster.'),
  uptimeSeconds: z.number().nullable().describe('The shortest among the masters of a cluster.'),
});

export const connectionMetricsSchema = z
  .object({
    connectionId: z.string(),
    windowMinutes: z.number().int(),
    queueCount: z.number().int(),
    totals: summaryCountsSchema.describe('Job counts by state, summed over every queue.'),
    queues: z.array(queueSummarySchema),
    store: storeFactsSchema,
    detailed: z
      .array(queueMetricsSchema)
      .optional()
      .describe('The full native payload per queue, when `detailed` was set.'),
    warnings: warningsSchema,
  })
  // Present when `queues` is one page (`limit`/`cursor` asked, or over allQueuesUpTo queues): the lists' page fields.
  .extend(pageInfo.partial().shape)
  .meta({ id: 'ConnectionMetrics' });

export type QueueMetrics = z.infer<typeof queueMetricsSchema>;
export type QueueSummary = z.infer<typeof queueSummarySchema>;
export type StoreFacts = z.infer<typeof storeFactsSchema>;
export type ConnectionMetrics = z.infer<typeof connectionMetricsSchema>;

/** The priorities query as numbers, deduplicated. */
export function parsePriorities(priorities: string | undefined): number[] {
  return priorities ? [...new Set(priorities.split(',').map(Number))] : [];
}
