import { describe, expect, it } from 'vitest';
import { movedJobId } from '../../routers/jobs/move-jobs.js';
import { taskHandlers } from '../../routers/_app.js';
import { createTask } from '../../server/tasks/create-task.js';
import { TaskRunner } from '../../server/tasks/task-runner.js';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

const system = { kind: 'authless' as const, userId: null, tokenId: null, organizationId: '', role: 'owner' as const };

describe('moving jobs to another queue (redrive) as a task', () => {
  const bed = queueTestBed();
  const services = () => bed.app.services;
  const replica = () => {
    const runner = new TaskRunner(
      {
        persistence: services().persistence,
        connections: services().connections,
        stores: services().stores,
        logger: services().logger,
      },
      { pollMs: 50 },
    );
    runner.useHandlers(taskHandlers);
    return runner;
  };
  const move = (from: string, params: Record<string, unknown>, maxPerSecond?: number) =>
    createTask(
      services().persistence.fork(),
      {
        kind: 'jobs.move',
        organizationId: services().persistence.localOrganizationId(),
        connectionId: 'main',
        queueName: from,
        maxPerSecond,
        params: {
          prefix: bed.fixture.prefix,
          to: { connectionId: 'main', queueName: `${from}-retry`, prefix: bed.fixture.prefix },
          ...params,
        },
      },
      system,
    );
  const task = async (id: string) => (await request(`${bed.app.api}/c/main/tasks/${id}`)).body;

  it('interrupted half-way and resumed, leaves every job exactly once in the target and none in the source', async () => {
    const source = await bed.seeded('payments', { failed: 1000 });
    const target = bed.openQueue('payments-retry');
    const ids = (await source.getFailed(0, -1)).map((job) => job.id!);
    const id = await move('payments', { status: 'failed' }, 400);
    const runner = replica();
    const running = runner.runOnce();
    await waitFor(async () => (await task(id)).processed >= 300, 10_000, 'a third of the move');
    await runner.stop();
    await running;
    expect((await task(id)).processed).toBeLessThan(1000);
    expect(await replica().runOnce()).toBe(true);

    expect(await task(id)).toMatchObject({ state: 'done', result: { moved: 1000, refused: 0 } });
    expect(await source.getJobCounts('failed', 'wait')).toEqual({ failed: 0, wait: 0 });
    const moved = await target.getWaiting(0, -1);
    expect(moved).toHaveLength(1000);
    expect(new Set(moved.map((job) => job.id)).size).toBe(1000);
    expect(moved.map((job) => job.id).sort()).toEqual(ids.map((jobId) => movedJobId('payments', jobId)).sort());
    expect(moved.every((job) => job.name === 'work')).toBe(true);
  });

  it('moves named jobs keeping their ids, and refuses a missing one or a numeric id per id', async () => {
    const source = bed.openQueue('emails');
    await source.add('welcome', { to: 'a@example.test' }, { jobId: 'welcome-a', delay: 60_000, attempts: 4 });
    await source.add('welcome', { to: 'b@example.test' }, { jobId: 'welcome-b' });
    const numeric = await source.add('welcome', {});
    const [a, b] = ['welcome-a', 'welcome-b'];
    const id = await move('emails', { jobIds: [a, b, 'nope', numeric.id], keepIds: true });
    await replica().runOnce();
    const done = await task(id);
    expect(done.result).toMatchObject({ moved: 2, refused: 2 });
    expect(done.result.results).toContainEqual(
      expect.objectContaining({ jobId: 'nope', ok: false, code: 'NOT_FOUND' }),
    );
    expect(done.result.results).toContainEqual(
      expect.objectContaining({ jobId: numeric.id, ok: false, error: expect.stringMatching(/numeric id/) }),
    );
    const target = bed.openQueue('emails-retry');
    const movedA = (await target.getJob(a))!;
    expect(movedA.data).toEqual({ to: 'a@example.test' });
    expect(movedA.opts.attempts).toBe(4);
    expect(await movedA.getState()).toBe('waiting');
    expect(await source.getJob(a)).toBeUndefined();
  });

  it('gives a colon in the source queue name a reversible id', () => {
    expect(movedJobId('legacy:queue', '7')).toBe('legacy%3Aqueue-7');
    expect(movedJobId('50%:x', '7')).toBe('50%25%3Ax-7');
  });
});
