import type { BulkResult } from '../../contracts/job-actions.js';
import type { MoveVerdict } from '../../server/bullmq/move-within-store.js';

export const refused = (jobId: string, code: BulkResult['code'] & string, error: string): BulkResult => ({
  jobId,
  ok: false,
  code,
  error,
});

/** The result a job's verdict gives (`moved`: ok; otherwise why it stays where it was). */
export function resultOf(jobId: string, verdict: MoveVerdict, targetId: string): BulkResult {
  switch (verdict) {
    case 'moved':
      return { jobId, ok: true };
    case 'missing':
      return refused(jobId, 'NOT_FOUND', `Job "${jobId}" was not found (or another move took it first)`);
    case 'locked':
      return refused(jobId, 'LOCKED', `Job "${jobId}" is being processed; move it when it finishes`);
    case 'flow':
      return refused(
        jobId,
        'FAILED',
        `Job "${jobId}" is part of a flow (it has a parent or children); moves take standalone jobs`,
      );
    case 'scheduled':
      return refused(jobId, 'FAILED', `Job "${jobId}" is a job scheduler's next run; change the scheduler instead`);
    case 'changed':
      return refused(jobId, 'FAILED', `Job "${jobId}" changed while being moved; it stays in the source queue`);
    case 'taken':
      return refused(
        jobId,
        'FAILED',
        `The target queue already holds a job "${targetId}"; job "${jobId}" stays in the source queue`,
      );
  }
}
