import { removeStatuses } from '../../contracts/job-actions.js';
import type { JobQuery } from '../../contracts/job-query.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { runQueryTask } from './bulk/query-task.js';
import { removeEach } from './bulk/remove-jobs.js';
import { countJobs } from './job-status.js';

/**
 * Remove by query as a background task (see runQueryTask), or by status:
 * batches of BullMQ's clean, limited to jobs whose timestamp precedes the
 * task's first start, so jobs arriving meanwhile stay.
 */
export const removeTask: TaskHandler = {
  kind: 'jobs.remove',
  async run(context) {
    const status = context.params.status as Parameters<typeof countJobs>[1];
    const queue = await context.store.queue(context.queueName!, String(context.params.prefix));
    if (context.params.query) {
      return runQueryTask(context, {
        queue,
        query: context.params.query as JobQuery<JobStatus>,
        statuses: removeStatuses,
        scope: 'remove',
        act: removeEach(queue),
        counted: 'removed',
      });
    }
    let removed = Number(context.cursor?.removed ?? 0);
    const total = context.cursor === null ? await countJobs(queue, status) : undefined;
    for (;;) {
      const grace = Math.max(0, Date.now() - context.firstStartedAt);
      const batch = await queue.clean(
        grace,
        context.batchSize,
        status === 'waiting' ? 'wait' : (status as 'completed'),
      );
      removed += batch.length;
      if (batch.length === 0 || !(await context.progress(batch.length, { removed }, total))) return { removed };
      await context.throttle();
    }
  },
};
