import { z } from 'zod';
import { isoTime } from './times.js';
import { databaseText } from './database-text.js';
import { connectionParams } from './params.js';
import { strictNumber } from './strict-number.js';

export const taskStateSchema = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);

export const taskSchema = z
  .object({
    id: z.string(),
    kind: z.string().describe('What runs: `jobs.retry`, `jobs.remove`, `queues.purge`, `jobs.move`, …'),
    queueName: z.string().nullable(),
    state: taskStateSchema,
    processed: z.number().int().describe('Jobs acted on so far.'),
    total: z.number().int().nullable().describe('Jobs the task expects to act on, when known.'),
    ratePerSecond: z.number().describe('Jobs per second since it started (until it ended).'),
    maxPerSecond: z.number().int().nullable(),
    startedAt: isoTime().nullable(),
    finishedAt: isoTime().nullable(),
    error: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
    createdAt: isoTime(),
  })
  .meta({ id: 'Task' });

export const taskListSchema = z.object({ tasks: z.array(taskSchema).describe('Newest first, at most 100.') });
export const taskParams = connectionParams.extend({
  taskId: databaseText().min(1).max(36).describe('Background task id (the `taskId` an action answered).'),
});
export const taskAcceptedSchema = z.object({
  taskId: z.string().describe('Follow it at `GET /api/c/{connectionId}/tasks/{taskId}`.'),
});

/**
 * The field a route that can run as a task adds to its own answer: with `async: true` the answer
 * is 202, carries `taskId`, and its counts are zero (the task's result has them). One answer type
 * either way, so typed clients read `succeeded` without narrowing.
 */
export const taskIdField = {
  taskId: z
    .string()
    .optional()
    .describe(
      'Only with `async: true` (then 202): the background task doing the work; its counts are in the task, these are zero.',
    ),
};

/** What a body adds to run an action as a background task. */
export const asyncFields = {
  async: z
    .union([z.literal(true), z.literal(false)])
    .optional()
    .describe('`true`: run as a background task, answered 202 `{ taskId }`.'),
  maxPerSecond: strictNumber(z.number().int().min(1).max(1_000_000))
    .optional()
    .describe('Background tasks only: at most this many jobs per second.'),
};

export type TaskView = z.infer<typeof taskSchema>;
