import type { JobStatus } from '../../contracts/jobs.js';

/** BullMQ's key name for each status: `waiting` is the `wait` list; `paused` is the legacy paused list. */
export const keyByStatus: Record<JobStatus, string> = {
  waiting: 'wait',
  active: 'active',
  delayed: 'delayed',
  completed: 'completed',
  failed: 'failed',
  paused: 'paused',
  prioritized: 'prioritized',
  waitingChildren: 'waiting-children',
};

/** Statuses held in Redis lists (newest at the head); the others are sorted sets. */
export const listStatuses: ReadonlySet<JobStatus> = new Set<JobStatus>(['waiting', 'active', 'paused']);
