import { z } from 'zod';
import { deletedSchema } from './deleted.js';
import { jobStatusSchema } from './jobs.js';
import { jobParams, queueParams } from './params.js';
import { strictBoolean } from './strict-boolean.js';
import { bulkSelectionCheck } from './bulk-selection.js';
import { queryDryRunField, queryFields, queryOutcomeFields, type JobQuery } from './job-query.js';
import { asyncFields, taskIdField } from './tasks.js';
import { strictNumber } from './strict-number.js';
import { protectionConfirmName } from './protection.js';

/** BullMQ's lowest priority value (2^21 - 1; 1 is the highest). */
export const maxPriority = 2_097_151;

const keepJobs = z
  .union([strictBoolean(), strictNumber(z.number().int().min(0))])
  .describe('`true` removes the job when it finishes, a number keeps that many finished jobs, `false` keeps it.');

export const addJobInput = queueParams.extend({
  name: z.string().min(1).max(1000).describe('Job name.'),
  data: z.unknown().default({}).describe('Job data: any JSON value (the 1 MB request body limit applies).'),
  jobId: z
    .string()
    .min(1)
    .max(1000)
    .refine((id) => `${Number.parseInt(id, 10)}` !== id, 'must not be an integer (BullMQ reserves those)')
    .refine((id) => !id.includes(':'), 'must not contain ":"')
    .optional()
    .describe('Custom job id; a job with this id must not exist yet (409).'),
  delay: strictNumber(
    z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  )
    .optional()
    .describe('Milliseconds to wait before the job may run.'),
  priority: strictNumber(z.number().int().min(0).max(maxPriority))
    .optional()
    .describe(`0 (none, default) or 1 (highest) .. ${maxPriority}.`),
  attempts: strictNumber(z.number().int().min(1).max(1_000_000))
    .optional()
    .describe('Total attempts before the job stays failed.'),
  backoff: z
    .object({
      type: z.enum(['fixed', 'exponential']),
      delay: strictNumber(
        z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1),
      ),
    })
    .strict()
    .optional()
    .describe('Delay between attempts.'),
  removeOnComplete: keepJobs.optional(),
  removeOnFail: keepJobs.optional(),
  lifo: strictBoolean().optional().describe('Add at the front of the waiting list.'),
});
export type AddJobInput = z.infer<typeof addJobInput>;

export const maxBulkJobIds = 100;

/** A job id as text, or as the integer BullMQ's own ids are (`15` names job "15"). */
export const bulkJobId = z
  .union([z.string().min(1).max(1000), strictNumber(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))])
  .transform((id) => String(id));

/** The fields naming what a bulk action acts on; `allStatus` lists the statuses the `all` form accepts. */
function bulkTargetShape<S extends z.ZodType<string, string>>(allStatus: S) {
  return queueParams.extend({
    jobIds: z
      .array(bulkJobId)
      .min(1)
      .max(maxBulkJobIds)
      .optional()
      .describe(
        `The jobs to act on: 1 to ${maxBulkJobIds} ids (strings, or BullMQ's own numeric ids as non-negative integers).`,
      ),
    status: allStatus.optional().describe('With `all: true`: act on every job of this status.'),
    all: z
      .literal(true)
      .optional()
      .describe('Act on every job of `status` (bounded batches; repeat while `done` is false).'),
  });
}

/** Statuses each action takes in the status and query forms. */
export const retryStatuses = ['failed', 'completed'] as const;
export const removeStatuses = ['waiting', 'delayed', 'completed', 'failed', 'prioritized'] as const;

const withQuery = bulkSelectionCheck({ takesQuery: true, dryRunWithQueryOnly: true });

export const retryJobsInput = bulkTargetShape(z.enum(retryStatuses))
  .extend({
    ...queryFields(retryStatuses),
    ...queryDryRunField,
    ...asyncFields,
    data: z.unknown().optional().describe('With jobIds: replaces the data of each job before it is retried.'),
  })
  .superRefine(withQuery);

export const updateJobDataInput = jobParams.extend({
  data: z.unknown().describe('The new data, any JSON value; replaces the old data whole.'),
});
export const duplicateJobInput = jobParams.extend({
  data: z.unknown().optional().describe("The copy's data; default: the job's."),
  opts: z
    .object({
      delay: strictNumber(
        z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1),
      ).optional(),
      priority: strictNumber(z.number().int().min(0).max(maxPriority)).optional(),
      attempts: strictNumber(z.number().int().min(1).max(1_000_000)).optional(),
      lifo: strictBoolean().optional(),
    })
    .strict()
    .optional()
    .describe("Options that replace the job's own; the others are copied."),
});
export const clearStacktracesInput = jobParams.extend({
  keep: z.coerce.number().int().min(0).max(1000).default(0).describe('Newest stack traces to keep.'),
  confirmName: protectionConfirmName('queue'),
});
export const stacktracesClearedSchema = deletedSchema
  .extend({ removed: z.number().int(), kept: z.number().int() })
  .describe('`id`: the job whose stack traces were removed.');
export const removeJobsInput = bulkTargetShape(z.enum(removeStatuses))
  .extend({
    ...queryFields(removeStatuses),
    ...queryDryRunField,
    ...asyncFields,
    confirmName: protectionConfirmName('queue'),
  })
  .superRefine(withQuery);
export const invokeJobsInput = bulkTargetShape(z.enum(['delayed']))
  .extend({
    data: z.unknown().optional().describe('With jobIds: replaces the data of each job before it is promoted.'),
  })
  .superRefine(bulkSelectionCheck({ takesQuery: false, dryRunWithQueryOnly: true }));

/** What every bulk action receives: named ids, a status to act on in full, or a query continued by cursor. */
export interface BulkTarget<S extends string = string> {
  jobIds?: string[] | undefined;
  status?: S | undefined;
  query?: JobQuery<S> | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
  dryRun?: boolean | undefined;
}

export const bulkErrorCodes = ['NOT_FOUND', 'INVALID_STATE', 'LOCKED', 'FAILED'] as const;

export const bulkResultSchema = z
  .object({
    jobId: z.string(),
    ok: z.boolean(),
    code: z.enum(bulkErrorCodes).optional().describe('Why this id failed.'),
    error: z.string().optional(),
  })
  .meta({ id: 'BulkResult' });
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const bulkOutcomeSchema = z
  .object({
    results: z
      .array(bulkResultSchema)
      .describe(
        'One entry per distinct id given (empty for the status form; the query form lists its refused ids, at most 100).',
      ),
    succeeded: z.number().int().describe('Jobs acted on.'),
    failed: z.number().int().describe('Ids that could not be acted on (query form: matched jobs refused).'),
    status: jobStatusSchema.optional().describe('Status form: the status acted on.'),
    remaining: z.number().int().optional().describe('Status form: jobs still in the status afterwards.'),
    done: z
      .boolean()
      .optional()
      .describe(
        'Status form: false when the batch cap stopped the work; call again. Query form: whether the scan reached the end.',
      ),
    ...queryOutcomeFields,
    ...taskIdField,
  })
  .meta({ id: 'BulkOutcome' });
export type BulkOutcome = z.infer<typeof bulkOutcomeSchema>;
