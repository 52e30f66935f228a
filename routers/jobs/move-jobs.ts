import type { Job, JobsOptions, Queue } from 'bullmq';
import type { BulkResult } from '../../contracts/job-actions.js';
import { isStoreUnavailable } from '../../server/stores/store-errors.js';

/** Options a moved job does not carry over: it becomes a new waiting job of the target queue. */
const dropped = ['jobId', 'delay', 'repeat', 'repeatJobKey', 'parent', 'timestamp', 'prevMillis', 'debounce', 'deduplication'] as const;

/**
 * The moved job's id: derived from its source queue and id (a ':' written as %3A, since BullMQ
 * ids may not hold one), so adding it again after an interruption finds the same job instead
 * of making a second one.
 */
export function movedJobId(sourceQueue: string, jobId: string): string {
  return `${sourceQueue.replaceAll('%', '%25').replaceAll(':', '%3A')}-${jobId}`;
}

export interface MoveTarget {
  queue: Queue;
  keepIds: boolean;
}

/**
 * Moves one job: add to the target (idempotent by id), then remove from the source, never the
 * other way round, so an interruption can leave the job in both places for a moment but never
 * in neither; running the move again completes it. An active job is refused (LOCKED).
 */
export async function moveJob(source: Queue, job: Job, target: MoveTarget): Promise<BulkResult> {
  const jobId = job.id!;
  try {
    if ((await job.getState()) === 'active') return refused(jobId, 'LOCKED', `Job "${jobId}" is being processed; move it when it finishes`);
    const opts = Object.fromEntries(Object.entries(job.opts).filter(([key]) => !(dropped as readonly string[]).includes(key))) as JobsOptions;
    if (target.keepIds && /^\d+$/.test(jobId)) return refused(jobId, 'FAILED', `Job "${jobId}" has a numeric id, which BullMQ does not accept as a custom id; move it without keepIds`);
    const targetId = target.keepIds ? jobId : movedJobId(source.name, jobId);
    // Same name and creation time: the move itself is in the audit log.
    await target.queue.add(job.name, job.data, { ...opts, timestamp: job.timestamp, jobId: targetId });
    if ((await source.remove(jobId)) === 0) {
      // It became active between the check and the removal: take the copy back out.
      await target.queue.remove(targetId).catch(() => 0);
      return refused(jobId, 'LOCKED', `Job "${jobId}" became active while being moved; it stays in the source queue`);
    }
    return { jobId, ok: true };
  } catch (error) {
    if (isStoreUnavailable(error)) throw error;
    return refused(jobId, 'FAILED', error instanceof Error ? error.message : String(error));
  }
}

/** The query form's action: move each matched id. */
export const moveEach = (source: Queue, target: MoveTarget) => (jobIds: string[]) => moveJobIds(source, jobIds, target);

/** A move's part of a query cursor's fingerprint: a cursor continues moving to the same queue only. */
export const moveScope = (to: { connectionId: string; queueName: string; prefix: string }) => `move:${JSON.stringify([to.connectionId, to.prefix, to.queueName])}`;

export async function moveJobIds(source: Queue, jobIds: string[], target: MoveTarget): Promise<BulkResult[]> {
  return Promise.all(
    [...new Set(jobIds)].map(async (jobId) => {
      const job = await source.getJob(jobId);
      return job ? moveJob(source, job, target) : refused(jobId, 'NOT_FOUND', `Job "${jobId}" was not found`);
    }),
  );
}

const refused = (jobId: string, code: BulkResult['code'] & string, error: string): BulkResult => ({ jobId, ok: false, code, error });

/**
 * One batch of a status-wide move: the `batchSize` oldest-listed jobs after `skip` (the ones
 * refused earlier stay at the head and are skipped). Moved jobs leave the status, so the next
 * batch starts at the same place.
 */
export async function moveStatusBatch(source: Queue, status: string, skip: number, batchSize: number, target: MoveTarget): Promise<{ results: BulkResult[]; more: boolean }> {
  const jobs = (await source.getJobs([status as 'failed'], skip, skip + batchSize - 1, true)).filter((job): job is Job => Boolean(job));
  const results = await Promise.all(jobs.map((job) => moveJob(source, job, target)));
  return { results, more: jobs.length === batchSize };
}
