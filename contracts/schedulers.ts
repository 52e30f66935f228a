import { z } from 'zod';
import { deletedSchema, deprecatedField } from './deleted.js';
import { pageInfo, pageQuery } from './pagination.js';
import { connectionParams, queueParams } from './params.js';
import { strictBoolean } from './strict-boolean.js';
import { strictNumber } from './strict-number.js';
import { protectionConfirmName } from './protection.js';

export const schedulerParams = queueParams.extend({
  schedulerId: z.string().min(1).max(1000).describe('Job scheduler id, percent-encoded in REST paths.'),
});

export const schedulerSchema = z
  .object({
    id: z.string().describe('Job scheduler id (what upsertJobScheduler was given).'),
    queueName: z.string(),
    prefix: z.string().describe('BullMQ key prefix of the queue.'),
    name: z.string().describe('Name of the jobs the scheduler produces.'),
    pattern: z.string().optional().describe('Cron pattern, for cron schedulers.'),
    every: z.number().optional().describe('Interval in milliseconds, for interval schedulers.'),
    tz: z.string().optional().describe('IANA timezone the cron pattern is read in.'),
    startDate: z.iso.datetime().optional(),
    endDate: z.iso.datetime().optional(),
    limit: z.number().int().optional().describe('Most iterations the scheduler will produce.'),
    iterationCount: z.number().int().optional().describe('Iterations produced so far (BullMQ counts the pending one).'),
    next: z.iso.datetime().nullable().describe('When the next job is due; null when the scheduler has no next run.'),
    template: z.object({
      data: z.unknown().describe('Data of every produced job.'),
      opts: z.record(z.string(), z.unknown()).describe('Job options of every produced job.'),
    }),
    recentFailures: z
      .number()
      .int()
      .optional()
      .describe(
        'Failed jobs among those its latest 100 runs produced (counted in the newest 10,000 failures of the queue).',
      ),
    lastFailedAt: z.iso
      .datetime()
      .nullable()
      .optional()
      .describe('When one of its jobs last failed; null when none is in the failed set.'),
  })
  .meta({ id: 'Scheduler' });

export const schedulerListSchema = pageInfo
  .extend({
    schedulers: z.array(schedulerSchema).describe('Ordered by queue, then by next run.'),
  })
  .meta({ id: 'SchedulerPage' });

export const listSchedulersInput = connectionParams.extend(pageQuery.shape);
export const listQueueSchedulersInput = queueParams.extend(pageQuery.shape);

const keepJobs = z.union([
  z.boolean(),
  strictNumber(z.number().int().min(0)),
  z
    .object({ age: strictNumber(z.number().int().min(0)), count: strictNumber(z.number().int().min(0)).optional() })
    .strict(),
  z.object({ count: strictNumber(z.number().int().min(0)) }).strict(),
]);

/** The job options a scheduler's jobs may carry (BullMQ's template options, the commonly useful ones). */
export const schedulerJobOptionsSchema = z
  .object({
    attempts: strictNumber(z.number().int().min(1).max(1000)).optional(),
    backoff: z
      .union([
        strictNumber(z.number().int().min(0)),
        z
          .object({ type: z.enum(['fixed', 'exponential']), delay: strictNumber(z.number().int().min(0)).optional() })
          .strict(),
      ])
      .optional(),
    priority: strictNumber(z.number().int().min(0).max(2_097_152)).optional(),
    lifo: strictBoolean().optional(),
    removeOnComplete: keepJobs.optional(),
    removeOnFail: keepJobs.optional(),
    keepLogs: strictNumber(z.number().int().min(0)).optional(),
    stackTraceLimit: strictNumber(z.number().int().min(0)).optional(),
  })
  .strict()
  .describe('Options of every produced job.');

export const scheduleSchema = z
  .object({
    type: z.enum(['cron', 'every']).describe('`cron` needs `pattern`; `every` needs `everyMs`.'),
    pattern: z.string().min(1).max(200).optional().describe('Cron pattern (5 or 6 fields).'),
    everyMs: strictNumber(z.number().int().min(1)).optional().describe('Interval in milliseconds.'),
    timezone: z.string().min(1).max(100).optional().describe('IANA timezone for the cron pattern, e.g. Europe/Paris.'),
    startDate: z.iso.datetime({ offset: true }).optional().describe('No run before this instant.'),
    endDate: z.iso.datetime({ offset: true }).optional().describe('No run after this instant.'),
    limit: strictNumber(z.number().int().min(1)).optional().describe('Stop after this many runs.'),
    immediately: strictBoolean().optional().describe('Also run once right away (cron only; not with startDate).'),
  })
  .strict();

const schedulerBody = z.object({
  name: z.string().min(1).max(1000).describe('Name of the jobs the scheduler produces.'),
  data: z.unknown().optional().describe('Data of every produced job (JSON).'),
  schedule: scheduleSchema.describe('When the scheduler produces a job: a cron pattern or a fixed interval.'),
  options: schedulerJobOptionsSchema.optional(),
});

export const createSchedulerInput = queueParams.extend(schedulerBody.shape).extend({
  schedulerId: z.string().min(1).max(1000).describe('Id of the new scheduler, unique in the queue.'),
});

export const updateSchedulerInput = schedulerParams.extend(schedulerBody.shape);

/** `confirmName`: only a `confirm` connection needs it. */
export const deleteSchedulerInput = schedulerParams.extend({ confirmName: protectionConfirmName('queue') });
export const deleteSchedulerResultSchema = deletedSchema.extend({
  deleted: deprecatedField(z.literal(true), 'success'),
  schedulerId: deprecatedField(z.string(), 'id'),
});

export type Scheduler = z.infer<typeof schedulerSchema>;
export type SchedulerList = z.infer<typeof schedulerListSchema>;
export type Schedule = z.infer<typeof scheduleSchema>;
export type SchedulerJobOptions = z.infer<typeof schedulerJobOptionsSchema>;
