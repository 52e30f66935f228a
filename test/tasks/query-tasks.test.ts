import { describe, expect, it } from 'vitest';
import { taskHandlers } from '../../routers/_app.js';
import { movedJobId } from '../../routers/jobs/move-jobs.js';
import { TaskRunner } from '../../server/tasks/task-runner.js';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { failJobs, queueTestBed } from '../helpers/queues.js';

const needle = 'customer-42';
/** `count` customers, two in five of them customer-42, spread through the status. */
const customers = (count: number) =>
  Array.from({ length: count }, (_, n) => ({ customer: n % 5 < 2 ? needle : `customer-${7 + (n % 3)}`, order: n }));

describe('the query form as a background task and in the move route', () => {
  const bed = queueTestBed();
  const post = (path: string, body: unknown) =>
    request(`${bed.app.api}/c/main/queues/${path}`, { method: 'POST', body });
  const task = async (taskId: string) => (await request(`${bed.app.api}/c/main/tasks/${taskId}`)).body;
  const replica = () => {
    const { persistence, connections, stores, logger } = bed.app.services;
    const runner = new TaskRunner({ persistence, connections, stores, logger }, { pollMs: 50 });
    runner.useHandlers(taskHandlers);
    return runner;
  };
  const seeded = async (name: string, count: number) => {
    const queue = bed.openQueue(name);
    const items = customers(count);
    const ids = await failJobs(bed.fixture.bullmq, queue, items);
    return { queue, ids, matching: ids.filter((_, n) => items[n]!.customer === needle) };
  };

  it('retries the matches as a task, stopped half-way and resumed by another replica, each exactly once', async () => {
    const { queue, matching } = await seeded('emails', 600);
    const accepted = await post('emails/jobs/retry', {
      query: { q: needle, status: ['failed'] },
      async: true,
      maxPerSecond: 60,
    });
    expect(accepted.status).toBe(202);
    const first = replica();
    const running = first.runOnce();
    await waitFor(async () => (await task(accepted.body.taskId)).processed >= 60, 20_000, 'a first round of the task');
    await first.stop();
    await running;
    expect((await task(accepted.body.taskId)).processed).toBeLessThan(240);

    expect(await replica().runOnce()).toBe(true);
    expect(await task(accepted.body.taskId)).toMatchObject({
      state: 'done',
      kind: 'jobs.retry',
      processed: 240,
      result: { retried: 240, refused: 0, scanned: 600 },
    });
    expect((await queue.getWaiting(0, -1)).map((job) => job.id).sort()).toEqual([...matching].sort());
    expect(await queue.getJobCountByTypes('failed')).toBe(360);
  });

  it('removes the matches as a task', async () => {
    const { queue } = await seeded('sms', 50);
    const accepted = await post('sms/jobs/remove', { query: { q: needle, in: ['data'] }, async: true });
    expect(accepted.status).toBe(202);
    await replica().runOnce();
    expect(await task(accepted.body.taskId)).toMatchObject({
      state: 'done',
      kind: 'jobs.remove',
      result: { removed: 20, refused: 0 },
    });
    const left = await queue.getFailed(0, -1);
    expect(left).toHaveLength(30);
    expect(left.some((job) => job.data.customer === needle)).toBe(false);
  });

  it('moves the matches to another queue: dry run, then synchronously by cursor, then as a task', async () => {
    const { queue, matching } = await seeded('orders', 100);
    const to = { queueName: 'orders-dlq' };
    const query = { q: needle, status: ['failed'] };
    const dry = await post('orders/jobs/move', { to, query, dryRun: true });
    expect(dry.body).toMatchObject({
      matched: 40,
      done: true,
      sampleIds: expect.any(Array),
      target: { queueName: 'orders-dlq' },
    });

    const firstPart = await post('orders/jobs/move', { to, query, limit: 15 });
    expect(firstPart.body).toMatchObject({
      succeeded: 15,
      failed: 0,
      matched: 15,
      done: false,
      cursor: expect.any(String),
    });
    const secondPart = await post('orders/jobs/move', { to, query, limit: 15, cursor: firstPart.body.cursor });
    expect(secondPart.body).toMatchObject({ succeeded: 15, matchedTotal: 30 });

    const accepted = await post('orders/jobs/move', { to, query, async: true });
    expect(accepted.status).toBe(202);
    await replica().runOnce();
    expect(await task(accepted.body.taskId)).toMatchObject({
      state: 'done',
      kind: 'jobs.move',
      result: { moved: 10, refused: 0 },
    });
    const target = bed.openQueue('orders-dlq');
    expect((await target.getWaiting(0, -1)).map((job) => job.id).sort()).toEqual(
      matching.map((id) => movedJobId('orders', id)).sort(),
    );
    expect(await queue.getJobCountByTypes('failed')).toBe(60);
  });
});
