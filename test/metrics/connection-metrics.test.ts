import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

const queueCount = 1000;
const queueName = (index: number) => `q${String(index).padStart(4, '0')}`;

describe('GET /metrics over 1,000 queues', () => {
  const fixture = storeFixture();
  let app: TestApp;
  let url: string;

  beforeAll(async () => {
    app = await bootApp({ env: fixture.env });
    url = `${app.api}/c/${fixture.connectionId}/metrics`;
    // Queues written raw, as BullMQ lays them out: meta hash, wait list, completed set, metrics points.
    const pipeline = fixture.redis.pipeline();
    for (let index = 0; index < queueCount; index++) {
      const key = (type: string) => `${fixture.prefix}:${queueName(index)}:${type}`;
      pipeline.hset(
        key('meta'),
        'opts.maxLenEvents',
        '10000',
        'version',
        'bullmq:6.7.0',
        ...(index === 7 ? ['paused', '1'] : []),
      );
      for (let job = 0; job < index % 3; job++) pipeline.rpush(key('wait'), `${job}`);
      if (index % 2 === 0) pipeline.zadd(key('completed'), 1, 'done');
    }
    pipeline.rpush(`${fixture.prefix}:${queueName(0)}:metrics:completed:data`, '5', '3', '1');
    pipeline.rpush(`${fixture.prefix}:${queueName(0)}:metrics:failed:data`, '2');
    await pipeline.exec();
  });
  afterAll(async () => {
    await app.close();
    await fixture.cleanup();
  });

  it('sums counts across every queue, per queue and in total, pipelined', async () => {
    const timed = async () => {
      const started = performance.now();
      const response = await request(url);
      return { response, ms: Math.round(performance.now() - started) };
    };
    const first = await timed();
    const second = await timed();
    console.log(`[figure] GET /metrics over ${queueCount} queues: ${first.ms} ms cold, ${second.ms} ms warm`);
    const { status, body } = second.response;
    expect(status).toBe(200);
    expect(body.queueCount).toBe(queueCount);
    expect(body.queues).toHaveLength(queueCount);
    let waiting = 0;
    for (let index = 0; index < queueCount; index++) waiting += index % 3;
    expect(body.totals).toEqual({
      active: 0,
      completed: queueCount / 2,
      delayed: 0,
      failed: 0,
      prioritized: 0,
      waiting,
      'waiting-children': 0,
    });
    expect(body.queues[5]).toMatchObject({
      queueName: 'q0005',
      prefix: fixture.prefix,
      isPaused: false,
      counts: { waiting: 2, completed: 0 },
    });
    expect(body.queues[7].isPaused).toBe(true);
    expect(body.warnings).toEqual([]);
  });

  it('computes completed/failed rates over windowMinutes from the native points', async () => {
    const whole = await request(url);
    expect(whole.body.windowMinutes).toBe(60);
    expect(whole.body.queues[0].rates).toEqual({
      completed: { total: 9, perMinute: 9 / 60 },
      failed: { total: 2, perMinute: 2 / 60 },
    });
    const recent = await request(`${url}?windowMinutes=2`);
    expect(recent.body.queues[0].rates.completed).toEqual({ total: 8, perMinute: 4 });
  });

  it('answers the same from the tracked counts once they caught up, and sees a write at once', async () => {
    const counted = (await request(url)).body;
    const store = app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!);
    // The first summary started the tracker; once caught up the counts come from it, pause flag and rates by script.
    const refs = await app.services.queueDirectory.list(store);
    for (let tries = 0; !(await store.counts.totals(refs)); tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const tracked = (await request(url)).body;
    expect(tracked.queues).toEqual(counted.queues);
    expect(tracked.totals).toEqual(counted.totals);
    await fixture.redis.rpush(`${fixture.prefix}:${queueName(5)}:wait`, 'late');
    const after = (await request(url)).body;
    expect(after.queues[5].counts.waiting).toBe(3);
    expect(after.totals.waiting).toBe(counted.totals.waiting + 1);
    await fixture.redis.rpop(`${fixture.prefix}:${queueName(5)}:wait`);
  });

  it('reports store facts', async () => {
    const { body } = await request(url);
    expect(body.store.mode).toBe('standalone');
    expect(body.store.nodes).toBe(1);
    expect(body.store.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.store.usedMemoryBytes).toBeGreaterThan(0);
    expect(body.store.connectedClients).toBeGreaterThan(0);
    expect(body.store.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['windowMinutes=0', 'windowMinutes'],
    ['windowMinutes=-5', 'windowMinutes'],
    ['priorities=x', 'priorities'],
    ['detailed=maybe', 'detailed'],
    ['includePrometheus=2', 'includePrometheus'],
  ])('answers %s with 400 naming %s', async (query, parameter) => {
    const { status, body } = await request(`${url}?${query}`);
    expect(status).toBe(400);
    expect(body.message).toContain(parameter);
  });
});

describe('GET /metrics?detailed', () => {
  const fixture = storeFixture();
  let app: TestApp;
  const queues = [new Queue('one', fixture.bullmq), new Queue('two', fixture.bullmq)];

  beforeAll(async () => {
    app = await bootApp({ env: fixture.env });
    await queues[0]!.add('a', {}, { priority: 3 });
    await queues[1]!.add('b', {});
  });
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await app.close();
    await fixture.cleanup();
  });

  it.each(['1', 'true'])('detailed=%s adds the full native payload per queue', async (flag) => {
    const { body } = await request(
      `${app.api}/c/${fixture.connectionId}/metrics?detailed=${flag}&priorities=3&includePrometheus=true&windowMinutes=10`,
    );
    expect(body.detailed.map((queue: any) => queue.queueName)).toEqual(['one', 'two']);
    const [one] = body.detailed;
    expect(one.range).toEqual({ start: 0, end: 9, windowMinutes: 10 });
    expect(one.priorityCounts).toEqual({ '3': 1 });
    expect(one.counts.prioritized).toBe(1);
    expect(one.prometheus).toContain('bullmq_job_count{queue="one", state="prioritized"} 1');
    expect(one.state.workers).toBe(0);
  });

  it('leaves the payload out without detailed (or detailed=false)', async () => {
    expect((await request(`${app.api}/c/${fixture.connectionId}/metrics`)).body).not.toHaveProperty('detailed');
    expect((await request(`${app.api}/c/${fixture.connectionId}/metrics?detailed=false`)).body).not.toHaveProperty(
      'detailed',
    );
  });
});
