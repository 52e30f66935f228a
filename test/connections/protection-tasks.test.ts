import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { taskHandlers } from '../../routers/_app.js';
import { Task } from '../../server/persistence/entities/task.js';
import { StoreRegistry } from '../../server/stores/store-registry.js';
import { TaskRunner } from '../../server/tasks/task-runner.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { seedQueue } from '../helpers/queues.js';
import { redisUrl, storeFixture } from '../helpers/stores.js';

/** Tasks act on their store: a connection made read-only stops them, before they start or between batches. */
describe('tasks on a connection made read-only', () => {
  const fixture = storeFixture();
  let app: TestApp;
  let connectionId: string;
  const queues: Queue[] = [];
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true' } });
    connectionId = (
      await request(`${app.api}/connections`, {
        method: 'POST',
        body: { name: 'prod', url: `${redisUrl}/0`, prefixes: [fixture.prefix] },
      })
    ).body.id;
  });
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await app?.close();
    await fixture.cleanup();
  });

  const seeded = async (name: string, failed: number) => {
    const queue = await seedQueue(fixture.bullmq, name, { failed });
    queues.push(queue);
    return queue;
  };
  const protect = (protection: string) =>
    request(`${app.api}/connections/${connectionId}`, { method: 'PATCH', body: { protection } });
  const retryAll = async (queueName: string, maxPerSecond?: number) =>
    (
      await request(`${app.api}/c/prod/queues/${queueName}/jobs/retry`, {
        method: 'POST',
        body: { status: 'failed', all: true, async: true, ...(maxPerSecond ? { maxPerSecond } : {}) },
      })
    ).body.taskId as string;
  const taskRow = (id: string) => app.services.persistence.fork().findOneOrFail(Task, { id });
  const stoppedMessage =
    'Connection "prod" is read-only (protection: read-only): the task was stopped; only reads are allowed';

  it('a task queued before the change fails when a runner takes it, having acted on nothing', async () => {
    await protect('none');
    const queue = await seeded('emails', 6);
    const taskId = await retryAll('emails');
    await protect('read-only');
    await app.services.tasks.runOnce();
    expect(await taskRow(taskId)).toMatchObject({ state: 'failed', error: stoppedMessage, processed: 0 });
    expect(await queue.getJobCountByTypes('failed')).toBe(6);
  });

  it('a running task stops after its batch, in a replica the change did not reach, and fails saying why', async () => {
    await protect('none');
    const queue = await seeded('reports', 20);
    // 2 jobs a second: ten batches over ~10 s, time enough to change the protection after the first.
    const taskId = await retryAll('reports', 2);
    // Another replica: its own store clients, which the PATCH of this process does not close.
    const stores = new StoreRegistry({ logger: app.services.logger });
    const replica = new TaskRunner({
      persistence: app.services.persistence,
      connections: app.services.connections,
      stores,
      logger: app.services.logger,
    });
    replica.useHandlers(taskHandlers);
    onTestFinished(() => stores.closeAll());
    const running = replica.runOnce();
    await waitFor(async () => (await taskRow(taskId)).processed >= 2, 15_000, 'the first batch');
    await protect('read-only');
    expect(await running).toBe(true);
    await replica.runOnce();
    const task = await taskRow(taskId);
    expect(task).toMatchObject({ state: 'failed', error: stoppedMessage });
    expect(task.processed).toBeLessThan(20);
    expect(await queue.getJobCountByTypes('failed')).toBe(20 - task.processed);
  });
});
