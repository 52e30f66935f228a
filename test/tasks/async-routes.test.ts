import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('bulk actions and purge with async: true', () => {
  const bed = queueTestBed();
  const post = (path: string, body: unknown) =>
    request(`${bed.app.api}/c/main/queues/${path}`, { method: 'POST', body });
  const finished = (taskId: string) =>
    waitFor(
      async () => {
        await bed.app.services.tasks.runOnce();
        const task = (await request(`${bed.app.api}/c/main/tasks/${taskId}`)).body;
        return ['done', 'failed', 'cancelled'].includes(task.state) ? task : undefined;
      },
      15_000,
      'the task to end',
    );

  it('retries every failed job as a task: 202 with the task id, then done', async () => {
    const queue = await bed.seeded('emails', { failed: 30 });
    const accepted = await post('emails/jobs/retry', { status: 'failed', all: true, async: true, maxPerSecond: 1000 });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ results: [], succeeded: 0, failed: 0, done: false, taskId: expect.any(String) });
    expect(await finished(accepted.body.taskId)).toMatchObject({
      state: 'done',
      kind: 'jobs.retry',
      queueName: 'emails',
      processed: 30,
    });
    expect(await queue.getJobCountByTypes('failed')).toBe(0);
  });

  it('purges as a task with no batch cap, after the same confirmation', async () => {
    const queue = await bed.seeded('reports', { completed: 25, failed: 5 });
    const unconfirmed = await post('reports/purge', { statuses: ['completed'], confirmName: 'nope', async: true });
    expect(unconfirmed.status).toBe(400);
    const accepted = await post('reports/purge', {
      statuses: ['completed', 'failed'],
      confirmName: 'reports',
      async: true,
    });
    expect(accepted.status).toBe(202);
    const task = await finished(accepted.body.taskId);
    expect(task).toMatchObject({
      state: 'done',
      kind: 'queues.purge',
      result: { totalRemoved: 30, removedByStatus: { completed: 25, failed: 5 } },
    });
    expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 0 });
  });

  it('keeps async to the status form and maxPerSecond to async', async () => {
    await bed.seeded('mixed', { failed: 1 });
    const withIds = await post('mixed/jobs/retry', { jobIds: ['1'], async: true });
    expect(withIds.status).toBe(400);
    expect(withIds.body.message).toMatch(/async/);
    const syncRate = await post('mixed/jobs/retry', { status: 'failed', all: true, maxPerSecond: 5 });
    expect(syncRate.status).toBe(400);
    expect(syncRate.body.message).toMatch(/maxPerSecond/);
  });

  it('the CLI starts a retry task and follows it to the end', async () => {
    await bed.seeded('cli-queue', { failed: 12 });
    const env = { BULLPEN_URL: bed.app.url };
    const started = await runBullpen(['retry', 'cli-queue', '--all-failed', '--async', '--max-per-second', '500'], {
      env,
    });
    expect(started.code).toBe(0);
    const taskId = /task (\S+) started/.exec(started.stdout)?.[1];
    expect(taskId).toBeDefined();
    await finished(taskId!);
    const follow = await runBullpen(['tasks', taskId!], { env });
    expect(follow.stdout).toMatch(new RegExp(`task ${taskId} done: 12 processed`));
    const list = await runBullpen(['tasks'], { env });
    expect(list.stdout).toMatch(/jobs\.retry\s+cli-queue\s+done\s+12\/12/);
  });
});
