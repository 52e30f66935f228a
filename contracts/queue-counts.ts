import { z } from 'zod';

/**
 * The job statuses the spec recognizes ("States and transitions"); purge and
 * clean act on them. contracts/job-statuses.ts lists these plus `waitingChildren`.
 */
export const purgeableStatuses = [
  'waiting',
  'active',
  'delayed',
  'completed',
  'failed',
  'paused',
  'prioritized',
] as const;
export const purgeableStatusSchema = z
  .enum(purgeableStatuses)
  .describe("A job status: `waiting` is BullMQ's `wait` list.");
export type PurgeableStatus = z.infer<typeof purgeableStatusSchema>;

/** Every count shown for a queue: the purgeable statuses plus jobs waiting for their children. */
export const jobCountKinds = [...purgeableStatuses, 'waitingChildren'] as const;
export type JobCountKind = (typeof jobCountKinds)[number];

export const jobCountsSchema = z
  .object(
    Object.fromEntries(jobCountKinds.map((kind) => [kind, z.number().int()])) as Record<JobCountKind, z.ZodNumber>,
  )
  .describe(
    'Jobs per status. On BullMQ 6 a paused queue keeps its jobs in `waiting`; `paused` counts the legacy paused list.',
  )
  .meta({ id: 'QueueCounts' });
export type JobCounts = z.infer<typeof jobCountsSchema>;
