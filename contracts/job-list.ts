import { z } from 'zod';
import { epochMs } from './times.js';
import { pageInfo, pageQuery } from './pagination.js';
import { queueParams } from './params.js';
import { jobStateSchema, jobStatusSchema } from './job-statuses.js';

/**
 * A comma-separated query value (`a,b,c`), each item checked against `item`.
 * Query strings carry lists this way because the REST adapter only repeats array keys.
 */
export function commaList<T extends z.ZodType<string, string>>(item: T) {
  return z
    .string()
    .max(2000)
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(item).min(1, 'must name at least one value'));
}

export const summaryFields = [
  'name',
  'state',
  'data',
  'returnvalue',
  'progress',
  'failedReason',
  'attemptsMade',
  'delay',
  'priority',
  'timestamp',
  'processedOn',
  'finishedOn',
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
    .describe(
      `Comma-separated summary fields to return (id is always present): id, ${summaryFields.join(', ')}. Default: all.`,
    ),
  maxDataBytes: z
    .number()
    .int()
    .min(1)
    .max(maxMaxDataBytes)
    .default(defaultMaxDataBytes)
    .describe(
      `Bytes of the JSON text of data/returnvalue a summary carries before it is cut (default ${defaultMaxDataBytes}).`,
    ),
});
export type SummaryOptions = z.output<typeof summaryOptions>;

export const jobSummarySchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    state: jobStateSchema.optional(),
    data: z
      .unknown()
      .optional()
      .describe('The data, or when `truncated` names it, the first maxDataBytes of its JSON text.'),
    returnvalue: z.unknown().optional(),
    progress: z.unknown().optional(),
    failedReason: z.string().nullable().optional(),
    attemptsMade: z.number().int().optional(),
    delay: z.number().optional().describe('Milliseconds it waits, once added, before it may run.'),
    priority: z.number().optional(),
    timestamp: epochMs('When the job was created.').optional(),
    processedOn: epochMs('When a worker last started it.').nullable().optional(),
    finishedOn: epochMs('When it last completed or failed.').nullable().optional(),
    truncated: z.boolean().describe('Whether a preview was cut to maxDataBytes; the detail route has the full value.'),
    truncatedFields: z.array(z.enum(['data', 'returnvalue'])).describe('Which fields were cut.'),
  })
  .describe('A job as lists show it: large values previewed.')
  .meta({ id: 'JobSummary' });
export type JobSummary = z.infer<typeof jobSummarySchema>;

export const listJobsInput = queueParams
  .extend(pageQuery.shape)
  .extend(summaryOptions.shape)
  .extend({
    status: jobStatusSchema.describe('Which status to list.'),
    order: z
      .enum(['newest', 'oldest'])
      .default('newest')
      .describe("`newest` is BullMQ's default (descending) order of the status; `oldest` reverses it."),
  });

export const jobListSchema = pageInfo.extend({ jobs: z.array(jobSummarySchema) }).meta({ id: 'JobPage' });
export type JobList = z.infer<typeof jobListSchema>;
