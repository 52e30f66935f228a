import { z } from 'zod';
import { epochMs } from './times.js';
import { jobStateSchema } from './job-statuses.js';

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

export const jobDetailSchema = z
  .object({
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
    delay: z.number().describe('Milliseconds it waits, once added, before it may run.'),
    priority: z.number(),
    timestamp: epochMs('When the job was created.'),
    processedOn: epochMs('When a worker last started it.').nullable(),
    finishedOn: epochMs('When it last completed or failed.').nullable(),
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
  })
  .meta({ id: 'JobDetail' });
export type JobDetail = z.infer<typeof jobDetailSchema>;

export const jobStacktracesSchema = z
  .object({
    stacktraces: z.array(z.string()),
    failedReason: z.string().nullable(),
    attemptsMade: z.number().int(),
  })
  .meta({ id: 'JobStacktraces' });
