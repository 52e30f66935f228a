import { z } from 'zod';

/**
 * The statuses a job can be listed under, camelCase like every key of the API
 * (`waitingChildren` is BullMQ's `waiting-children`); `waiting` is BullMQ's
 * `wait` list, `paused` its legacy paused list.
 */
export const jobStatuses = [
  'waiting',
  'active',
  'delayed',
  'completed',
  'failed',
  'paused',
  'prioritized',
  'waitingChildren',
] as const;
export const jobStatusSchema = z.enum(jobStatuses);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** A job's state as BullMQ reports it (`unknown`: the job vanished while being read). */
export const jobStateSchema = z.enum([...jobStatuses, 'unknown']);
export type JobState = z.infer<typeof jobStateSchema>;
