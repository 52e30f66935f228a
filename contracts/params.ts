import { z } from 'zod';

/** Path parameters shared by every connection-scoped route. */
export const connectionParams = z.object({
  connectionId: z.string().min(1).max(200).describe('Connection id (saved: a UUID; environment: the lowercased NAME).'),
});

export const queueParams = connectionParams.extend({
  queueName: z.string().min(1).max(1000).describe('Queue name, percent-encoded in REST paths.'),
});

export const jobParams = queueParams.extend({
  jobId: z.string().min(1).max(1000).describe('Job id, percent-encoded in REST paths.'),
});
