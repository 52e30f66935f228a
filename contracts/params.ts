import { z } from 'zod';

/** Path parameters shared by every connection-scoped route. */
export const connectionParams = z.strictObject({
  connectionId: z
    .string()
    .min(1)
    .max(200)
    .describe('Connection id or name (saved: its UUID or its name; environment: the lowercased NAME).'),
});

/**
 * The one definition of `prefix` for every route under a queue: which of the
 * connection's prefixes the queue lives under, when it exists under several.
 */
export const queuePrefixField = z
  .string()
  .min(1)
  .max(200)
  .describe(
    "BullMQ key prefix of the queue, one of the connection's prefixes. Default: the first of them under which the queue exists " +
      "(routes that create a queue, adding a job or a scheduler, fall back to the connection's first prefix when it exists under none).",
  )
  .optional();

/** Every route under `/c/{connectionId}/queues/{queueName}` and `scheduled-jobs/queue/{queueName}`. */
export const queueParams = connectionParams.extend({
  queueName: z.string().min(1).max(1000).describe('Queue name, percent-encoded in REST paths.'),
  prefix: queuePrefixField,
});

export const jobParams = queueParams.extend({
  jobId: z.string().min(1).max(1000).describe('Job id, percent-encoded in REST paths.'),
});
