import type { Job, Queue } from 'bullmq';
import type { BulkOutcome, BulkResult, BulkTarget, bulkErrorCodes } from '../../../contracts/job-actions.js';
import { toJobState } from '../../../server/bullmq/job-state.js';
import { isStoreUnavailable, StoreFaultMidway } from '../../../server/stores/store-errors.js';

/** What a bulk action's domain function receives. */
export interface BulkOptions<S extends string> extends BulkTarget<S> {
  queue: Queue;
}

type BulkErrorCode = (typeof bulkErrorCodes)[number];

/** Why one job of a bulk action was refused; reported in that id's result, not as the request's error. */
export class JobActionRefused extends Error {
  override name = 'JobActionRefused';
  constructor(
    readonly code: BulkErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type JobAction = (job: Job, queue: Queue) => Promise<void>;

async function actOnJob(queue: Queue, jobId: string, action: JobAction): Promise<BulkResult> {
  try {
    const job = await queue.getJob(jobId);
    if (!job) return { jobId, ok: false, code: 'NOT_FOUND', error: `Job "${jobId}" was not found` };
    await action(job, queue);
    return { jobId, ok: true };
  } catch (error) {
    // A store outage fails the whole request (503), not each id.
    if (isStoreUnavailable(error)) throw error;
    if (error instanceof JobActionRefused) return { jobId, ok: false, code: error.code, error: error.message };
    return { jobId, ok: false, code: 'FAILED', error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Runs `action` on each distinct id; one id's failure never stops the others. A store fault
 * answers 503 with the counts of the ids settled before it (those stay done).
 */
export async function actOnJobs(queue: Queue, jobIds: string[], action: JobAction): Promise<BulkOutcome> {
  const settled = await Promise.allSettled([...new Set(jobIds)].map((jobId) => actOnJob(queue, jobId, action)));
  const results = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const succeeded = results.filter((result) => result.ok).length;
  const fault = settled.find((outcome) => outcome.status === 'rejected');
  if (fault)
    throw isStoreUnavailable(fault.reason)
      ? new StoreFaultMidway(fault.reason, { succeeded, failed: results.length - succeeded })
      : fault.reason;
  return { results, succeeded, failed: results.length - succeeded };
}

/** The job's state, refused unless it is one of `allowed`. */
export async function requireState<S extends string>(job: Job, allowed: readonly S[], verb: string): Promise<S> {
  const state = toJobState(await job.getState());
  if (!(allowed as readonly string[]).includes(state)) {
    throw new JobActionRefused(
      'INVALID_STATE',
      `Job "${job.id}" is ${state}; only ${allowed.join(' or ')} jobs can be ${verb}`,
    );
  }
  return state as S;
}
