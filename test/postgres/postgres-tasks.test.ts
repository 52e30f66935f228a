import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/jobs.js';
import { postgresBed } from '../helpers/postgres-bed.js';

/** Background tasks (async: true) on a PostgreSQL connection: the same forms, run by the task runner. */
const bed = postgresBed();
const finished = (taskId: string) =>
  waitFor(
    async () => {
      await bed.app.services.tasks.runOnce();
      const task = (await bed.call('GET', `${bed.app.api}/c/main/tasks/${taskId}`)).body;
      return ['done', 'failed', 'cancelled'].includes(task.state) ? task : undefined;
    },
    15_000,
    'the task to end',
  );

describe('background tasks on PostgreSQL', () => {
  it('purges as a task after the same confirmation', async () => {
    const queue = await bed.fixture.seed('reports', { completed: 5, failed: 3 });
    expect(
      (
        await bed.call('POST', bed.queueUrl('reports', '/purge'), {
          statuses: ['completed'],
          confirmName: 'nope',
          async: true,
        })
      ).status,
    ).toBe(400);
    const accepted = await bed.call('POST', bed.queueUrl('reports', '/purge'), {
      statuses: ['completed', 'failed'],
      confirmName: 'reports',
      async: true,
    });
    expect(accepted.status).toBe(202);
    expect(await finished(accepted.body.taskId)).toMatchObject({
      state: 'done',
      kind: 'queues.purge',
      result: { totalRemoved: 8, removedByStatus: { completed: 5, failed: 3 } },
    });
    expect(await queue.getJobCounts('completed', 'failed')).toMatchObject({ completed: 0, failed: 0 });
  });

  it('retries and removes a whole status as tasks', async () => {
    const queue = await bed.fixture.seed('emails', { failed: 4, completed: 2 });
    const retry = await bed.call('POST', bed.queueUrl('emails', '/jobs/retry'), {
      status: 'failed',
      all: true,
      async: true,
      maxPerSecond: 1000,
    });
    expect(retry.status).toBe(202);
    expect(await finished(retry.body.taskId)).toMatchObject({ state: 'done', kind: 'jobs.retry', processed: 4 });
    const remove = await bed.call('POST', bed.queueUrl('emails', '/jobs/remove'), {
      status: 'completed',
      all: true,
      async: true,
    });
    expect(await finished(remove.body.taskId)).toMatchObject({ state: 'done', kind: 'jobs.remove' });
    expect(await queue.getJobCounts('failed', 'waiting', 'completed')).toMatchObject({
      failed: 0,
      waiting: 4,
      completed: 0,
    });
  });
});
