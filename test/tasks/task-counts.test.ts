import { describe, expect, it } from 'vitest';
import { taskHandlers } from '../../routers/_app.js';
import { Task } from '../../server/persistence/entities/task.js';
import { createTask } from '../../server/tasks/create-task.js';
import { TaskRunner } from '../../server/tasks/task-runner.js';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

const system = { kind: 'authless' as const, userId: null, tokenId: null, organizationId: '', role: 'owner' as const };

/** A task's counts on PostgreSQL (bigint columns) and after a service died mid-batch. */
describe('task progress counts', () => {
  const bed = queueTestBed({}, { persistence: 'server' });
  const services = () => bed.app.services;
  const retryTask = (queueName: string) =>
    createTask(
      services().persistence.fork(),
      {
        kind: 'jobs.retry',
        organizationId: services().persistence.localOrganizationId(),
        connectionId: 'main',
        queueName,
        params: { prefix: bed.fixture.prefix, status: 'failed' },
      },
      system,
    );
  const runOnce = () => {
    const runner = new TaskRunner({
      persistence: services().persistence,
      connections: services().connections,
      stores: services().stores,
      logger: services().logger,
    });
    runner.useHandlers(taskHandlers);
    return runner.runOnce();
  };
  const task = (id: string) => request(`${bed.app.api}/c/main/tasks/${id}`);

  it('adds progress up as numbers on PostgreSQL, where the view answers', async () => {
    await bed.seeded('emails', { failed: 2500 });
    const id = await retryTask('emails');
    expect(await runOnce()).toBe(true);
    const view = await task(id);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ state: 'done', processed: 2500, total: 2500, result: { retried: 2500 } });
  });

  it('counts the batch a killed service retried but never recorded, once resumed', async () => {
    const queue = await bed.seeded('invoices', { failed: 300 });
    const id = await retryTask('invoices');
    // As a service leaves it when killed after retrying 200 jobs but recording only the first 100:
    const startedAt = new Date();
    const retriedUnrecorded = (await queue.getFailed(0, 199)).map((job) => job.retry('failed'));
    await Promise.all(retriedUnrecorded);
    await services()
      .persistence.fork()
      .nativeUpdate(
        Task,
        { id },
        { state: 'running', startedAt, processed: 100, total: 300, cursor: { retried: 100, total: 300 } },
      );

    expect(await runOnce()).toBe(true);
    expect((await task(id)).body).toMatchObject({
      state: 'done',
      processed: 300,
      total: 300,
      result: { retried: 300 },
    });
    expect(await queue.getJobCounts('failed', 'wait')).toEqual({ failed: 0, wait: 300 });
  });
});
