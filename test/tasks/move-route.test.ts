import { describe, expect, it } from 'vitest';
import { movedJobId } from '../../routers/jobs/move-jobs.js';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('POST …/jobs/move (redrive)', () => {
  const bed = queueTestBed();
  const move = (queueName: string, body: unknown) =>
    request(`${bed.app.api}/c/main/queues/${queueName}/jobs/move`, { method: 'POST', body });

  it('counts in a dry run what the real move then moves, creating the target queue only when moving', async () => {
    const source = await bed.seeded('orders', { failed: 6, completed: 2 });
    const dry = await move('orders', { to: { queueName: 'orders-dlq' }, status: 'failed', all: true, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      matched: 6,
      succeeded: 0,
      target: { connectionId: 'main', queueName: 'orders-dlq', prefix: bed.fixture.prefix },
    });
    expect(await bed.fixture.redis.exists(`${bed.fixture.prefix}:orders-dlq:meta`)).toBe(0);

    const moved = await move('orders', { to: { queueName: 'orders-dlq' }, status: 'failed', all: true });
    expect(moved.body).toMatchObject({ succeeded: 6, failed: 0, remaining: 0, done: true });
    const target = bed.openQueue('orders-dlq');
    expect(await target.getJobCounts('wait')).toEqual({ wait: 6 });
    expect(await source.getJobCounts('failed', 'completed')).toEqual({ failed: 0, completed: 2 });
    const listed = await request(`${bed.app.api}/c/main/queues?search=orders-dlq`);
    expect(listed.body.queues.map((q: { name: string }) => q.name)).toEqual(['orders-dlq']);
  });

  it('moves named ids under derived ids, and as a background task with async', async () => {
    const source = await bed.seeded('emails', { failed: 3 });
    const [first, ...rest] = (await source.getFailed()).map((job) => job.id!);
    const byId = await move('emails', { to: { queueName: 'emails-retry' }, jobIds: [Number(first)] });
    expect(byId.body).toMatchObject({ succeeded: 1, results: [{ jobId: first, ok: true }] });
    expect(await bed.openQueue('emails-retry').getJob(movedJobId('emails', first!))).toBeDefined();

    const accepted = await move('emails', {
      to: { queueName: 'emails-retry' },
      status: 'failed',
      all: true,
      async: true,
    });
    expect(accepted.status).toBe(202);
    const task = await waitFor(
      async () => {
        await bed.app.services.tasks.runOnce();
        const body = (await request(`${bed.app.api}/c/main/tasks/${accepted.body.taskId}`)).body;
        return body.state === 'done' ? body : undefined;
      },
      10_000,
      'the move task',
    );
    expect(task.result).toMatchObject({ moved: rest.length, refused: 0 });
    expect(await bed.openQueue('emails-retry').getJobCounts('wait')).toEqual({ wait: 3 });
  });

  it('refuses moving a queue onto itself and a target name BullMQ would refuse', async () => {
    await bed.seeded('self', { failed: 1 });
    const onto = await move('self', { to: { queueName: 'self' }, status: 'failed', all: true });
    expect(onto.status).toBe(400);
    expect(onto.body.message).toMatch(/another queue/);
    const colon = await move('self', { to: { queueName: 'a:b' }, status: 'failed', all: true });
    expect(colon.status).toBe(400);
    expect(colon.body.code).toBe('UNSUPPORTED_QUEUE_NAME');
  });
});
