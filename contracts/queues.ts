import { z } from 'zod';
import { pageInfo, pageQuery } from './pagination.js';
import { asyncFields, taskIdField } from './tasks.js';
import { connectionParams, queueParams } from './params.js';
import { strictNumber } from './strict-number.js';
import { connectionProtectionSchema, protectionConfirmName } from './protection.js';

/**
 * The job statuses the spec recognizes ("States and transitions"); purge and
 * clean act on them. contracts/jobs.ts lists these plus `waitingChildren`.
 */
export const purgeableStatuses = ['waiting', 'active', 'delayed', 'completed', 'failed', 'paused', 'prioritized'] as const;
export const purgeableStatusSchema = z.enum(purgeableStatuses).describe('A job status: `waiting` is BullMQ\'s `wait` list.');
export type PurgeableStatus = z.infer<typeof purgeableStatusSchema>;

/** Purge accepts the statuses plus `all`, a selector meaning every one of them. */
export const purgeSelectorSchema = z.enum(['all', ...purgeableStatuses]);
export type PurgeSelector = z.infer<typeof purgeSelectorSchema>;

/** Every count shown for a queue: the purgeable statuses plus jobs waiting for their children. */
export const jobCountKinds = [...purgeableStatuses, 'waitingChildren'] as const;
export type JobCountKind = (typeof jobCountKinds)[number];

export const jobCountsSchema = z
  .object(Object.fromEntries(jobCountKinds.map((kind) => [kind, z.number().int()])) as Record<JobCountKind, z.ZodNumber>)
  .describe('Jobs per status. On BullMQ 6 a paused queue keeps its jobs in `waiting`; `paused` counts the legacy paused list.').meta({ id: 'QueueCounts' });
export type JobCounts = z.infer<typeof jobCountsSchema>;

/** Path params of a single-queue route plus the optional prefix choice. */
export const queueTarget = queueParams;

export const queueSummarySchema = z.object({
  name: z.string(),
  prefix: z.string().describe('BullMQ key prefix the queue lives under.'),
  isPaused: z.boolean(),
  jobCounts: jobCountsSchema,
}).meta({ id: 'Queue' });
export type QueueSummary = z.infer<typeof queueSummarySchema>;

export const queueSortFields = ['name', ...jobCountKinds] as const;
export type QueueSortField = (typeof queueSortFields)[number];

/** What the queue list can filter on; each is defined by the counts and flag the list shows. */
export const queueStates = ['paused', 'running', 'failing', 'idle'] as const;
export type QueueState = (typeof queueStates)[number];

export const listQueuesInput = connectionParams.extend(pageQuery.shape).extend({
  search: z.string().max(200).default('').describe('Case-insensitive substring of the queue name; empty matches all.'),
  sort: z.enum(queueSortFields).default('name').describe('Sort by name or by one job count.'),
  order: z
    .enum(['asc', 'desc'])
    .describe('Sort direction; default `asc` for name and `desc` for counts. Ties are broken by name, then prefix.')
    .optional(),
  state: z
    .enum(queueStates)
    .describe(
      'Only queues in this state: `paused` (`isPaused`), `running` (not paused, whether or not it has jobs or workers), `failing` (`failed` ≥ 1), `idle` (`waiting`, `prioritized`, `paused`, `active` and `delayed` all 0: nothing left to run; finished jobs and jobs waiting for children may remain; a paused queue can be idle). Combines with `search`; `total` counts the matching queues.',
    )
    .optional(),
  totals: z.stringbool().describe('`true`: add `totals`, the job counts of every queue of the connection summed by status, and `totalsAt`.').optional(),
});
export type ListQueuesQuery = Omit<z.infer<typeof listQueuesInput>, 'connectionId'>;

export const queueListSchema = pageInfo
  .extend({
    queues: z.array(queueSummarySchema),
    totals: jobCountsSchema
      .optional()
      .describe(
        'With `totals=true`: job counts summed over every queue of the connection (all its prefixes), whatever `search`, `state` and the page. Counted at `totalsAt`: totals are kept for SERVICE_QUEUE_LIST_CACHE_MS (5 s) after a count, so they may be that much older than the page.',
      ),
    totalsAt: z.iso.datetime().optional().describe('With `totals`: when they were counted (ISO 8601); at most SERVICE_QUEUE_LIST_CACHE_MS ago.'),
  })
  .meta({ id: 'QueuePage' });
export type QueueList = z.infer<typeof queueListSchema>;

export const workerSchema = z.object({
  id: z.string().describe('Redis client id of the worker connection.'),
  name: z.string().nullable().describe("The Worker's `name` option (as `GET /workers` shows it); null for an unnamed worker."),
  clientName: z.string().describe('The raw Redis client name BullMQ set (`<prefix>:<base64 queue>:w:<name>`).'),
  addr: z.string().describe('Address of the worker connection.'),
  age: z.number().int().describe('Seconds since the worker connected.'),
  idle: z.number().int().describe('Seconds since its last command.'),
}).meta({ id: 'QueueWorker' });

export const queueMetaSchema = z.object({
  concurrency: z.number().int().nullable().describe('Global concurrency, null when unset.'),
  max: z.number().int().nullable().describe('Global rate limit: jobs per `duration`, null when unset.'),
  duration: z.number().int().nullable().describe('Global rate limit window in ms, null when unset.'),
  maxLenEvents: z.number().int().nullable().describe('Approximate cap of the events stream.'),
  version: z.string().nullable().describe('Library and version that last wrote the queue meta, e.g. `bullmq:6.7.0`.'),
}).meta({ id: 'QueueMeta' });

export const queueDetailSchema = queueSummarySchema.extend({
  workers: z.object({ count: z.number().int(), list: z.array(workerSchema) }),
  schedulersCount: z.number().int().describe('Job schedulers (repeatable jobs) of the queue.'),
  meta: queueMetaSchema,
  rateLimitedForMs: z.number().int().describe('How long a rate limit a worker tripped still holds the queue (0: none); clear it with DELETE …/rate-limit.'),
  protection: connectionProtectionSchema.describe("The connection's protection: what changes to this queue need (see the connection record)."),
}).meta({ id: 'QueueDetail' });

/** A queue's throughput controls, as the queue-limit routes answer them. */
export const queueLimitsSchema = z
  .object({
    globalConcurrency: z.number().int().nullable().describe('Jobs processed at once across every worker; null: no limit.'),
    globalRateLimit: z.object({ max: z.number().int(), durationMs: z.number().int() }).nullable().describe('At most `max` jobs per `durationMs` across every worker; null: none.'),
    rateLimitedForMs: z.number().int().describe('Time left on a rate limit a worker tripped (0: none).'),
  })
  .meta({ id: 'QueueLimits' });
export type QueueLimits = z.infer<typeof queueLimitsSchema>;
export const globalConcurrencyInput = queueTarget.extend({
  concurrency: strictNumber(z.number().int().min(1).max(100_000)).describe('Jobs processed at once across every worker of the queue.'),
});
export const globalRateLimitInput = queueTarget.extend({
  max: strictNumber(z.number().int().min(1).max(1_000_000)).describe('At most this many jobs per `durationMs`, across every worker.'),
  durationMs: strictNumber(z.number().int().min(1).max(86_400_000)).describe('The rate limit window in milliseconds (at most a day).'),
});
export type QueueDetail = z.infer<typeof queueDetailSchema>;

export const pauseResultSchema = z.object({ success: z.literal(true), isPaused: z.boolean() }).meta({ id: 'PauseResult' });

export const cleanInput = queueTarget.extend({
  status: purgeableStatusSchema,
  gracePeriod: strictNumber(z.number().int().min(0)).default(0).describe('Keep jobs younger than this many ms.'),
  limit: strictNumber(z.number().int().min(1).max(1000)).default(1000).describe('At most this many jobs are removed.'),
  confirmName: protectionConfirmName('queue'),
});

export const cleanResultSchema = z.object({
  removed: z.number().int(),
  removedJobIds: z.array(z.string()),
}).meta({ id: 'CleanResult' });

const confirmName = z.string().max(1000).describe('Must equal the path `queueName` exactly.');

export const purgeInput = queueTarget.extend({
  confirmName,
  statuses: z.array(purgeSelectorSchema).min(1).max(100).describe('Statuses to purge; `all` selects every status.'),
  ...asyncFields,
});

export const removedByStatusSchema = z
  .object(Object.fromEntries(purgeableStatuses.map((status) => [status, z.number().int().optional()])) as Record<PurgeableStatus, z.ZodOptional<z.ZodNumber>>)
  .describe('Jobs removed per purged status; only the purged statuses appear.');

/** The spec's "Purge response (200)" table. */
export const purgeResultSchema = z.object({
  success: z.literal(true),
  queueName: z.string(),
  statusesPurged: z.array(purgeableStatusSchema).describe('After de-duplication and expansion of `all`.'),
  totalRemoved: z.number().int(),
  removedByStatus: removedByStatusSchema,
  removedJobIdsSample: z.array(z.string()).describe('Job ids removed; at most 100 of them.'),
  ...taskIdField,
}).meta({ id: 'PurgeResult' });
export type PurgeResult = z.infer<typeof purgeResultSchema>;

export const obliterateInput = queueTarget.extend({ confirmName });

export const obliterateResultSchema = z.object({
  success: z.literal(true),
  queueName: z.string(),
  prefix: z.string(),
  removedJobCounts: jobCountsSchema.describe('The jobs the queue held when it was removed.'),
}).meta({ id: 'ObliterateResult' });

export const canDeleteResultSchema = z.object({
  canDelete: z.boolean(),
  reason: z.string().optional().describe('Why the queue cannot be deleted, when it cannot.'),
  jobCounts: jobCountsSchema,
}).meta({ id: 'CanDeleteResult' });
export type CanDeleteResult = z.infer<typeof canDeleteResultSchema>;

export const deleteQueueInput = queueTarget.extend({ confirmName });

export const deleteResultSchema = z.object({
  success: z.literal(true),
  deleted: z.string().describe('Name of the deleted queue.'),
  prefix: z.string(),
  removedJobCounts: jobCountsSchema.describe('The jobs the queue held when it was removed (completed ones only).'),
}).meta({ id: 'DeletedQueue' });
