import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

describe('GET /queues/:queueName/metrics', () => {
  const fixture = storeFixture();
  let app: TestApp;
  let url: string;
  const work = new Queue('work', fixture.bullmq);
  const prio = new Queue('prio queue/%', fixture.bullmq);

  beforeAll(async () => {
    app = await bootApp({ env: fixture.env });
    url = `${app.api}/c/${fixture.connectionId}/queues/work/metrics`;
    const worker = new Worker(
      'work',
      async (job) => {
        if (job.data.fail) throw new Error('boom');
        return 'ok';
      },
      { ...fixture.bullmq, metrics: { maxDataPoints: 60 } },
    );
    const done = new Promise<void>((resolve) => {
      let finished = 0;
      const count = () => ++finished === 5 && resolve();
      worker.on('completed', count);
      worker.on('failed', count);
    });
    await work.addBulk([
      { name: 'a', data: {} },
      { name: 'a', data: {} },
      { name: 'a', data: {} },
      { name: 'a', data: { fail: true } },
      { name: 'a', data: { fail: true } },
    ]);
    await done;
    await worker.close();
    await work.setGlobalConcurrency(4);
    await work.setGlobalRateLimit(10, 1000);
    await work.upsertJobScheduler('every-minute', { every: 60_000 }, { name: 'tick' });
    await prio.addBulk([
      { name: 'p', data: {}, opts: { priority: 1 } },
      { name: 'p', data: {}, opts: { priority: 1 } },
      { name: 'p', data: {}, opts: { priority: 2 } },
    ]);
    await prio.pause();
    // Known one-minute points, newest first (BullMQ only writes a point once a minute has passed).
    const dataKey = `${fixture.prefix}:work:metrics:completed:data`;
    await fixture.redis.del(dataKey);
    await fixture.redis.rpush(dataKey, '4', '0', '2', '7');
  });
  afterAll(async () => {
    await work.close();
    await prio.close();
    await app.close();
    await fixture.cleanup();
  });

  it('returns native metrics, state, counts, meta and limits with no warnings', async () => {
    const { status, body } = await request(url);
    expect(status).toBe(200);
    expect(body.warnings).toEqual([]);
    expect(body.queueName).toBe('work');
    expect(body.range).toEqual({ start: 0, end: -1, windowMinutes: null });
    expect(body.completed.meta.count).toBe(3);
    expect(body.failed.meta.count).toBe(2);
    expect(body.completed.data).toEqual([4, 0, 2, 7]);
    expect(body.completed.count).toBe(4);
    // An interval scheduler's first job waits at once.
    expect(body.counts).toEqual({
      completed: 3,
      failed: 2,
      waiting: 1,
      active: 0,
      delayed: 0,
      prioritized: 0,
      'waiting-children': 0,
    });
    expect(body.state).toEqual({ isPaused: false, isMaxed: false, workers: 0, schedulers: 1 });
    expect(body.meta).toMatchObject({ concurrency: 4, max: 10, duration: 1000, maxLenEvents: 10000, paused: false });
    expect(body.meta.version).toMatch(/^bullmq:6\./);
    expect(body.rateLimit).toMatchObject({ globalConcurrency: 4, globalRateLimit: { max: 10, duration: 1000 } });
    expect(body.rateLimit.ttlMs).toBeTypeOf('number');
    expect(body.priorityCounts).toEqual({});
    expect(body).not.toHaveProperty('prometheus');
  });

  it('honours start/end and windowMinutes', async () => {
    const one = await request(`${url}?start=0&end=0`);
    expect(one.body.range).toEqual({ start: 0, end: 0, windowMinutes: null });
    expect(one.body.completed.data).toEqual([4]);
    const window = await request(`${url}?windowMinutes=2`);
    expect(window.body.range).toEqual({ start: 0, end: 1, windowMinutes: 2 });
    expect(window.body.completed.data).toEqual([4, 0]);
    const shifted = await request(`${url}?start=1&windowMinutes=2`);
    expect(shifted.body.completed.data).toEqual([0, 2]);
    const oldest = await request(`${url}?start=1&end=-1`);
    expect(oldest.body.range).toEqual({ start: 1, end: -1, windowMinutes: null });
    expect(oldest.body.completed.data).toEqual([0, 2, 7]);
  });

  it('samples counts per priority and reports the paused flag', async () => {
    const { body } = await request(
      `${app.api}/c/${fixture.connectionId}/queues/${encodeURIComponent('prio queue/%')}/metrics?priorities=1,2,7`,
    );
    expect(body.priorityCounts).toEqual({ '1': 2, '2': 1, '7': 0 });
    expect(body.state.isPaused).toBe(true);
    expect(body.meta.paused).toBe(true);
  });

  it.each(['1', 'true'])('includes the native Prometheus text with includePrometheus=%s', async (flag) => {
    const { body } = await request(`${url}?includePrometheus=${flag}`);
    expect(body.prometheus).toContain('# TYPE bullmq_job_count gauge');
    expect(body.prometheus).toContain('bullmq_job_count{queue="work", state="completed"} 3');
  });

  it('leaves Prometheus out with includePrometheus=false', async () => {
    expect((await request(`${url}?includePrometheus=false`)).body).not.toHaveProperty('prometheus');
  });

  it.each([
    ['start=-1', 'start'],
    ['start=abc', 'start'],
    ['end=-2', 'end'],
    ['start=5&end=2', 'end'],
    ['end=1.5', 'end'],
    ['windowMinutes=0', 'windowMinutes'],
    ['windowMinutes=ten', 'windowMinutes'],
    ['priorities=a,b', 'priorities'],
    ['priorities=0', 'priorities'],
    ['priorities=-1', 'priorities'],
    ['priorities=1,,2', 'priorities'],
    ['includePrometheus=maybe', 'includePrometheus'],
  ])('answers %s with 400 naming %s', async (query, parameter) => {
    const { status, body } = await request(`${url}?${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toContain(parameter);
  });

  it('404s a queue that does not exist, and an unknown prefix is a 400', async () => {
    expect((await request(`${app.api}/c/${fixture.connectionId}/queues/nope/metrics`)).status).toBe(404);
    const prefix = await request(`${url}?prefix=other`);
    expect(prefix.status).toBe(400);
    expect(prefix.body.message).toContain('prefix');
  });

  it('is the same through tRPC', async () => {
    const result = await app.trpc.metrics.queue.query({
      connectionId: fixture.connectionId,
      queueName: 'work',
      windowMinutes: 2,
    });
    expect(result.range).toEqual({ start: 0, end: 1, windowMinutes: 2 });
    expect(result.counts?.completed).toBe(3);
  });
});
