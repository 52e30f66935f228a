import { describe, expect, it } from 'vitest';
import { Task } from '../../server/persistence/entities/task.js';
import { createTask } from '../../server/tasks/create-task.js';
import { TaskRunner } from '../../server/tasks/task-runner.js';
import { taskHandlers } from '../../routers/_app.js';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

const system = { kind: 'authless' as const, userId: null, tokenId: null, organizationId: '', role: 'owner' as const };

describe('background tasks', () => {
  const bed = queueTestBed();
  const services = () => bed.app.services;
  const newTask = async (
    queueName: string,
    kind: string,
    params: Record<string, unknown>,
    maxPerSecond?: number,
    runner?: TaskRunner,
  ) =>
    createTask(
      services().persistence.fork(),
      {
        kind,
        organizationId: services().persistence.localOrganizationId(),
        connectionId: 'main',
        queueName,
        params: { prefix: bed.fixture.prefix, ...params },
        maxPerSecond,
      },
      system,
      runner,
    );
  const task = (id: string) => request(`${bed.app.api}/c/main/tasks/${id}`);
  const replica = (pollMs = 50) => {
    const runner = new TaskRunner(
      {
        persistence: services().persistence,
        connections: services().connections,
        stores: services().stores,
        logger: services().logger,
      },
      { pollMs },
    );
    runner.useHandlers(taskHandlers);
    return runner;
  };

  it('retries every failed job once, throttled, and reports progress, total and result', async () => {
    const queue = await bed.seeded('emails', { failed: 150 });
    const id = await newTask('emails', 'jobs.retry', { status: 'failed' }, 100);
    const started = Date.now();
    expect(await replica().runOnce()).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    const done = await task(id);
    expect(done.body).toMatchObject({
      state: 'done',
      kind: 'jobs.retry',
      queueName: 'emails',
      processed: 150,
      total: 150,
      result: { retried: 150 },
      maxPerSecond: 100,
    });
    expect(done.body.ratePerSecond).toBeLessThanOrEqual(110);
    expect(await queue.getJobCounts('failed', 'wait')).toEqual({ failed: 0, wait: 150 });
    const events = await bed.fixture.redis.xrevrange(`${bed.fixture.prefix}:emails:events`, '+', '-', 'COUNT', 50);
    const taskEvents = events.map(([, fields]) => fields).filter((fields) => fields[1] === 'task' && fields[3] === id);
    expect(taskEvents.length).toBeGreaterThanOrEqual(2);
    expect(taskEvents[0]).toContain('done');
  });

  it('claims a new task at once when its creation wakes a started runner, not at the next poll', async () => {
    await bed.seeded('woken', { failed: 30 });
    const asleep = replica(3_600_000);
    const idle = await newTask('woken', 'jobs.retry', { status: 'failed' }, undefined, asleep);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Not started: waking does nothing (tests drive runOnce themselves).
    expect((await task(idle)).body.state).toBe('queued');
    asleep.start();
    try {
      expect(await asleep.runOnce()).toBe(true);
      expect((await task(idle)).body.state).toBe('done');
      const id = await newTask('woken', 'jobs.retry', { status: 'failed' }, undefined, asleep);
      // An hour's poll: only the wake can have claimed it.
      await waitFor(async () => (await task(id)).body.state === 'done', 10_000, 'the woken task');
    } finally {
      await asleep.stop();
    }
  });

  it('resumes where a stopped replica left off, and no job is retried twice', async () => {
    const queue = await bed.seeded('invoices', { failed: 300 });
    const id = await newTask('invoices', 'jobs.retry', { status: 'failed' }, 100);
    const first = replica();
    const running = first.runOnce();
    await waitFor(async () => (await task(id)).body.processed >= 100, 10_000, 'a first batch');
    await first.stop();
    await running;
    const midway = (await task(id)).body;
    expect(midway.state).toBe('running');
    expect(midway.processed).toBeLessThan(300);

    expect(await replica().runOnce()).toBe(true);
    expect((await task(id)).body).toMatchObject({ state: 'done', processed: 300, result: { retried: 300 } });
    expect(await queue.getJobCounts('failed', 'wait')).toEqual({ failed: 0, wait: 300 });
  });

  it('runs a task in one replica only', async () => {
    await bed.seeded('reports', { failed: 20 });
    const id = await newTask('reports', 'jobs.retry', { status: 'failed' }, 20);
    const ran = await Promise.all([replica().runOnce(), replica().runOnce(), replica().runOnce()]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect((await task(id)).body.processed).toBe(20);
  });

  it('stops a running task when cancelled, and refuses to cancel an ended one', async () => {
    await bed.seeded('thumbnails', { failed: 200 });
    const id = await newTask('thumbnails', 'jobs.retry', { status: 'failed' }, 50);
    const running = replica().runOnce();
    await waitFor(async () => (await task(id)).body.processed > 0, 10_000, 'a first batch');
    const cancelled = await request(`${bed.app.api}/c/main/tasks/${id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('cancelled');
    await running;
    const after = (await task(id)).body;
    expect(after.state).toBe('cancelled');
    expect(after.processed).toBeLessThan(200);
    expect((await request(`${bed.app.api}/c/main/tasks/${id}`, { method: 'DELETE' })).status).toBe(409);
    const row = await services().persistence.fork().findOneOrFail(Task, { id });
    expect(row.leaseHolder).toBeNull();
  });

  it('removes jobs by status as a task, leaving the ones that arrive meanwhile', async () => {
    const queue = await bed.seeded('cleanup', { completed: 120 });
    const id = await newTask('cleanup', 'jobs.remove', { status: 'completed' });
    await replica().runOnce();
    expect((await task(id)).body).toMatchObject({
      state: 'done',
      processed: 120,
      total: 120,
      result: { removed: 120 },
    });
    expect(await queue.getJobCountByTypes('completed')).toBe(0);
  });

  it("lists the connection's tasks newest first and 404s an unknown one", async () => {
    const list = await request(`${bed.app.api}/c/main/tasks`);
    expect(list.status).toBe(200);
    expect(list.body.tasks.length).toBeGreaterThanOrEqual(5);
    expect(list.body.tasks[0].queueName).toBe('cleanup');
    expect((await task('00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });
});
