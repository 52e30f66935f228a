import { z } from 'zod';
import { pageInfo, pageQuery } from './pagination.js';
import { jobParams, queueParams } from './params.js';
import { protectionConfirmName } from './protection.js';

/**
 * The statuses a job can be listed under, camelCase like every key of the API
 * (`waitingChildren` is BullMQ's `waiting-children`); `waiting` is BullMQ's
 * `wait` list, `paused` its legacy paused list.
 */
export const jobStatuses = ['waiting', 'active', 'delayed', 'completed', 'failed', 'paused', 'prioritized', 'waitingChildren'] as const;
export const jobStatusSchema = z.enum(jobStatuses);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** A job's state as BullMQ reports it (`unknown`: the job vanished while being read). */
export const jobStateSchema = z.enum([...jobStatuses, 'unknown']);
export type JobState = z.infer<typeof jobStateSchema>;

/**
 * A comma-separated query value (`a,b,c`), each item checked against `item`.
 * Query strings carry lists this way because the REST adapter only repeats array keys.
 */
export function commaList<T extends z.ZodType<string, string>>(item: T) {
  return z
    .string()
    .max(2000)
    .transform((value) => [...new Set(value.split(',').map((part) => part.trim()).filter(Boolean))])
    .pipe(z.array(item).min(1, 'must name at least one value'));
}

export const summaryFields = [
  'name', 'state', 'data', 'returnvalue', 'progress', 'failedReason', 'attemptsMade',
  'delay', 'priority', 'timestamp', 'processedOn', 'finishedOn',
] as const;
/** `id` may be named too (`fields=id` lists ids only); every summary carries it anyway. */
export const summaryFieldSchema = z.enum(['id', ...summaryFields]);
export type SummaryField = z.infer<typeof summaryFieldSchema>;

export const defaultMaxDataBytes = 2048;
export const maxMaxDataBytes = 1024 * 1024;

/** How a caller shapes job summaries: which fields, and how much of `data`/`returnvalue` to preview. */
export const summaryOptions = z.object({
  fields: commaList(summaryFieldSchema)
    .optional()
    .describe(`Comma-separated summary fields to return (id is always present): id, ${summaryFields.join(', ')}. Default: all.`),
  maxDataBytes: z
    .number()
    .int()
    .min(1)
    .max(maxMaxDataBytes)
    .default(defaultMaxDataBytes)
    .describe(`Bytes of the JSON text of data/returnvalue a summary carries before it is cut (default ${defaultMaxDataBytes}).`),
});
export type SummaryOptions = z.output<typeof summaryOptions>;

export const jobSummarySchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    state: jobStateSchema.optional(),
    data: z.unknown().optional().describe('The data, or when `truncated` names it, the first maxDataBytes of its JSON text.'),
    returnvalue: z.unknown().optional(),
    progress: z.unknown().optional(),
    failedReason: z.string().nullable().optional(),
    attemptsMade: z.number().int().optional(),
    delay: z.number().optional(),
    priority: z.number().optional(),
    timestamp: z.number().optional(),
    processedOn: z.number().nullable().optional(),
    finishedOn: z.number().nullable().optional(),
    truncated: z.boolean().describe('Whether a preview was cut to maxDataBytes; the detail route has the full value.'),
    truncatedFields: z.array(z.enum(['data', 'returnvalue'])).describe('Which fields were cut.'),
  })
  .describe('A job as lists show it: large values previewed.').meta({ id: 'JobSummary' });
export type JobSummary = z.infer<typeof jobSummarySchema>;

export const listJobsInput = queueParams.extend(pageQuery.shape).extend(summaryOptions.shape).extend({
  status: jobStatusSchema.describe('Which status to list.'),
  order: z.enum(['newest', 'oldest']).default('newest').describe("`newest` is BullMQ's default (descending) order of the status; `oldest` reverses it."),
});

export const jobListSchema = pageInfo.extend({ jobs: z.array(jobSummarySchema) }).meta({ id: 'JobPage' });
export type JobList = z.infer<typeof jobListSchema>;

export const jobRefSchema = z.object({
  id: z.string(),
  queueName: z.string().nullable().describe('Null when the key lies under a prefix this connection does not list.'),
  prefix: z.string().nullable(),
  key: z.string().describe('The Redis key of the job hash.'),
  name: z.string().nullable().describe('Null when the job no longer exists.'),
  state: jobStateSchema,
});
export type JobRef = z.infer<typeof jobRefSchema>;

export const dependencyCountsSchema = z.object({
  processed: z.number().int(),
  unprocessed: z.number().int(),
  failed: z.number().int(),
  ignored: z.number().int(),
});

export const jobDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  data: z.unknown(),
  opts: z.record(z.string(), z.unknown()),
  state: jobStateSchema,
  progress: z.unknown(),
  returnvalue: z.unknown(),
  failedReason: z.string().nullable(),
  stacktrace: z.array(z.string()),
  attemptsMade: z.number().int(),
  attemptsStarted: z.number().int(),
  delay: z.number(),
  priority: z.number(),
  timestamp: z.number(),
  processedOn: z.number().nullable(),
  finishedOn: z.number().nullable(),
  processedBy: z.string().nullable().describe('The worker that last processed it, when known.'),
  parent: jobRefSchema.optional().describe('The parent job of a flow child.'),
  children: z
    .object({
      counts: dependencyCountsSchema,
      items: z.array(jobRefSchema),
      truncated: z.boolean().describe('Whether more children exist than listed (see /tree for more).'),
    })
    .optional()
    .describe('The children of a flow parent.'),
  logsCount: z.number().int(),
}).meta({ id: 'JobDetail' });
export type JobDetail = z.infer<typeof jobDetailSchema>;

export const maxLogRange = 1000;

export const jobLogsInput = jobParams.extend({
  start: z.number().int().min(0).default(0).describe('First log line, 0-based (oldest first).'),
  end: z.number().int().min(0).default(99).describe(`Last log line, inclusive; at most ${maxLogRange} lines per call.`),
});
export const jobLogsSchema = z.object({ logs: z.array(z.string()), count: z.number().int().describe('Log lines the job has in all.') }).meta({ id: 'JobLogs' });

export const clearJobLogsInput = jobParams.extend({
  keep: z.number().int().min(0).max(1_000_000).optional().describe('Keep the newest `keep` lines; omitted: remove all.'),
  confirmName: protectionConfirmName('queue'),
});
export const clearJobLogsSchema = z.object({ success: z.literal(true), count: z.number().int().describe('Log lines left.') });

export const jobStacktracesSchema = z.object({
  stacktraces: z.array(z.string()),
  failedReason: z.string().nullable(),
  attemptsMade: z.number().int(),
}).meta({ id: 'JobStacktraces' });
