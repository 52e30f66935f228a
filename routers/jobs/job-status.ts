import type { JobType, Queue } from 'bullmq';
import type { JobStatus } from '../../contracts/jobs.js';
import { keyByStatus, listStatuses } from '../../server/bullmq/status-keys.js';

/** Where a status's ids live: its key suffix and whether that key is a list. */
export function statusKey(status: JobStatus): { suffix: string; isList: boolean } {
  return { suffix: keyByStatus[status], isList: listStatuses.has(status) };
}

/** BullMQ 6 no longer names `paused` in its types, but its count script still reads that key. */
export function bullmqType(status: JobStatus): JobType {
  return keyByStatus[status] as JobType;
}

export function countJobs(queue: Queue, status: JobStatus): Promise<number> {
  return queue.getJobCountByTypes(bullmqType(status));
}
