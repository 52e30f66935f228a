import { z } from 'zod';

export const queueEventTypes = [
  'added',
  'waiting',
  'active',
  'progress',
  'completed',
  'failed',
  'delayed',
  'stalled',
  'removed',
  'paused',
  'resumed',
] as const;

export type QueueEventType = (typeof queueEventTypes)[number];

/** One event of a queue's live stream, as sent over SSE (`event: <type>`, `data: <this JSON>`). */
export const queueEventSchema = z.object({
  type: z.enum(queueEventTypes),
  queueName: z.string(),
  /** BullMQ's event stream id: strictly increasing, usable to order and de-duplicate. */
  id: z.string(),
  jobId: z.string().optional(),
  /** The state the job is in after this event. */
  state: z.string().optional(),
  prev: z.string().optional(),
  failedReason: z.string().optional(),
  progress: z.unknown().optional(),
  delay: z.number().optional(),
  /** Only with `includeData=true`: the return value of a completed job. */
  returnvalue: z.unknown().optional(),
});

export type QueueEvent = z.infer<typeof queueEventSchema>;
