import { z } from 'zod';
import { queueParams } from './params.js';
import { connectionProtectionSchema } from './protection.js';
import { queueSummarySchema } from './queue-list.js';

/** Path params of a single-queue route plus the optional prefix choice. */
export const queueTarget = queueParams;

export const workerSchema = z
  .object({
    id: z.string().describe('Redis client id of the worker connection.'),
    name: z
      .string()
      .nullable()
      .describe("The Worker's `name` option (as `GET /workers` shows it); null for an unnamed worker."),
    clientName: z.string().describe('The raw Redis client name BullMQ set (`<prefix>:<base64 queue>:w:<name>`).'),
    addr: z.string().describe('Address of the worker connection.'),
    age: z.number().int().describe('Seconds since the worker connected.'),
    idle: z.number().int().describe('Seconds since its last command.'),
  })
  .meta({ id: 'QueueWorker' });

export const queueMetaSchema = z
  .object({
    concurrency: z.number().int().nullable().describe('Global concurrency, null when unset.'),
    max: z.number().int().nullable().describe('Global rate limit: jobs per `duration`, null when unset.'),
    duration: z.number().int().nullable().describe('Global rate limit window in ms, null when unset.'),
    maxLenEvents: z.number().int().nullable().describe('Approximate cap of the events stream.'),
    version: z.string().nullable().describe('Library and version that last wrote the queue meta, e.g. `bullmq:6.7.0`.'),
  })
  .meta({ id: 'QueueMeta' });

export const queueDetailSchema = queueSummarySchema
  .extend({
    workers: z.object({ count: z.number().int(), list: z.array(workerSchema) }),
    schedulersCount: z.number().int().describe('Job schedulers (repeatable jobs) of the queue.'),
    meta: queueMetaSchema,
    rateLimitedForMs: z
      .number()
      .int()
      .describe(
        'How long a rate limit a worker tripped still holds the queue (0: none); clear it with DELETE …/rate-limit.',
      ),
    protection: connectionProtectionSchema.describe(
      "The connection's protection: what changes to this queue need (see the connection record).",
    ),
  })
  .meta({ id: 'QueueDetail' });
export type QueueDetail = z.infer<typeof queueDetailSchema>;
