import { z } from 'zod';
import { warningsSchema } from './introspection.js';

export const workerSchema = z
  .object({
    queueName: z.string(),
    prefix: z.string().describe('BullMQ key prefix of the queue.'),
    id: z.string().describe('Redis client id of the worker connection.'),
    name: z.string().nullable().describe("The Worker's `name` option; null for an unnamed worker."),
    addr: z.string().describe('Address the worker connects from.'),
    age: z.number().describe('Seconds since the connection was opened.'),
    idle: z.number().describe('Seconds since the connection last ran a command.'),
    db: z.number().nullable(),
    cmd: z.string().nullable().describe('Last command the connection ran.'),
    clientName: z.string().describe('The raw Redis client name BullMQ set.'),
  })
  .meta({ id: 'Worker' });

export const workerListSchema = z
  .object({
    workers: z.array(workerSchema),
    byQueue: z
      .record(z.string(), z.number().int())
      .describe('Worker count per queue name (same-named queues under several prefixes are summed).'),
    warnings: warningsSchema,
  })
  .meta({ id: 'WorkerList' });

export type Worker = z.infer<typeof workerSchema>;
export type WorkerList = z.infer<typeof workerListSchema>;
