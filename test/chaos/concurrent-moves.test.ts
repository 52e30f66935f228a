import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { seedFailedJobs } from '../tasks/support/failed-jobs.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { ownRedis } from './support/own-redis.js';

const prefix = 'chaos';
const jobs = chaosSize(4000, 20_000);

/**
 * Issue 34, finding 7: two moves of the same jobs at once (to two queues, so a job taken twice
 * would show) each answered `succeeded: 20000`. Each job is counted by the move that moved it:
 * the two counts add up to the jobs, and each equals what its target holds.
 */
describe(`two concurrent moves of the same ${jobs} jobs`, () => {
  const own = ownRedis();
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MAIN: own.server.url,
        SERVICE_REDIS_URL_MAIN_PREFIX: prefix,
        DISABLE_RATE_LIMIT: 'true',
      },
    });
  });
  afterAll(() => app?.close());

  it('count each job once, for the move that moved it', { timeout: chaosTimeout() }, async () => {
    await seedFailedJobs(own.redis, prefix, 'orders', jobs);
    const move = (to: string) =>
      request(`${app.api}/c/main/queues/orders/jobs/move`, {
        method: 'POST',
        body: { to: { queueName: to }, status: 'failed', all: true },
      });
    const [a, b] = await Promise.all([move('orders-a'), move('orders-b')]);
    const held = async (name: string) => {
      const queue = new Queue(name, { connection: own.connection, prefix });
      try {
        return await queue.getWaitingCount();
      } finally {
        await queue.close();
      }
    };
    const [inA, inB] = [await held('orders-a'), await held('orders-b')];
    const sum = a.body.succeeded + b.body.succeeded;
    recordChaosRow({
      scenario: `two concurrent moves of the same ${jobs} jobs`,
      expected: `succeeded sum = ${jobs}, each = its target's count`,
      observed: `succeeded ${a.body.succeeded} + ${b.body.succeeded} = ${sum}; targets hold ${inA} + ${inB}`,
      held: sum === jobs && a.body.succeeded === inA && b.body.succeeded === inB,
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(sum).toBe(jobs);
    expect({ a: a.body.succeeded, b: b.body.succeeded }).toEqual({ a: inA, b: inB });
    expect(a.body.failed + b.body.failed).toBe(0);
    expect(await own.redis.zcard(`${prefix}:orders:failed`)).toBe(0);
  });
});
