import { retryStatuses } from '../../contracts/job-actions.js';
import type { JobQuery } from '../../contracts/job-query.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { queueKey } from '../../server/bullmq/queue-key.js';
import { runQueryTask } from './bulk/query-task.js';
import { retryEach } from './bulk/retry-jobs.js';

/**
 * Retry by query as a background task (see runQueryTask), or by status:
 * batches of BullMQ's own retry script, limited to jobs that finished before
 * the task first started, so a job failing again meanwhile is not retried a
 * second time, and a resumed task goes on with the same set.
 */
export const retryTask: TaskHandler = {
  kind: 'jobs.retry',
  async run(context) {
    const status = context.params.status as 'failed' | 'completed';
    const prefix = String(context.params.prefix);
    const queue = context.store.queue(context.queueName!, prefix);
    if (context.params.query) {
      return runQueryTask(context, { queue, query: context.params.query as JobQuery<JobStatus>, statuses: retryStatuses, scope: 'retry', act: retryEach(queue), counted: 'retried' });
    }
    const finishedSet = queueKey({ prefix, name: context.queueName! }, status);
    const remaining = () => context.store.client.zcount(finishedSet, '-inf', context.firstStartedAt);
    let left = await remaining();
    const total = context.cursor === null ? left : null;
    let retried = Number(context.cursor?.retried ?? 0);
    while (left > 0) {
      await queue.backend.retryFinishedJobs(status, context.batchSize, context.firstStartedAt);
      const now = await remaining();
      retried += left - now;
      const keepGoing = await context.progress(left - now, { retried }, total ?? undefined);
      left = now;
      if (!keepGoing) return { retried };
      await context.throttle();
    }
    return { retried };
  },
};
