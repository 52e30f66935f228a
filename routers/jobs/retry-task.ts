import { retryStatuses } from '../../contracts/job-actions.js';
import type { JobQuery } from '../../contracts/job-query.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { runQueryTask } from './bulk/query-task.js';
import { retryCallSize, retryInCalls } from './bulk/retry-calls.js';
import { retryEach } from './bulk/retry-jobs.js';

/**
 * Retry by query as a background task (see runQueryTask), or by status:
 * calls of BullMQ's own retry script (see retryInCalls; as many in flight as
 * the store takes), `jobsPerProgress`
 * jobs between two progress records, limited to jobs that finished before
 * the task first started, so a job failing again meanwhile is not retried a
 * second time, and a resumed task goes on with the same set.
 *
 * The status form's count is what left that set (`total` at the first start minus what is still in it), not a
 * sum of batches: a service killed between a batch and its progress write would otherwise
 * lose that batch from `processed` and the result; the resumed run records it first.
 */
export const retryTask: TaskHandler = {
  kind: 'jobs.retry',
  async run(context) {
    const status = context.params.status as 'failed' | 'completed';
    const prefix = String(context.params.prefix);
    const queue = await context.store.queue(context.queueName!, prefix);
    if (context.params.query) {
      return runQueryTask(context, {
        queue,
        query: context.params.query as JobQuery<JobStatus>,
        statuses: retryStatuses,
        scope: 'retry',
        act: retryEach(queue),
        counted: 'retried',
      });
    }
    const remaining = () =>
      context.store.finishedBefore({ prefix, name: context.queueName! }, status, context.firstStartedAt);
    let left = await remaining();
    let recorded = Number(context.cursor?.retried ?? 0);
    // A row from before `total` was kept in the cursor counts, as it did, from where it stopped.
    const total = context.cursor === null ? left : Number(context.cursor.total ?? recorded + left);
    for (;;) {
      const retried = Math.max(recorded, total - left);
      const keepGoing = await context.progress(retried - recorded, { retried, total }, total);
      recorded = retried;
      if (!keepGoing || left === 0) return { retried };
      await context.throttle();
      await retryInCalls(queue, status, context.firstStartedAt, context.jobsPerProgress, {
        size: Math.min(retryCallSize, context.batchSize),
        inFlight: context.store.bulkCallsInFlight,
      });
      left = await remaining();
    }
  },
};
