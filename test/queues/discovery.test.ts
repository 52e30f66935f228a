import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';
import { commandsDuring } from '../helpers/command-count.js';

/** Writes the meta hash BullMQ writes for a new queue, for many queues in one round trip. */
async function createQueues(
  redis: ReturnType<typeof storeFixture>['redis'],
  prefix: string,
  names: string[],
): Promise<void> {
  const pipeline = redis.pipeline();
  for (const name of names)
    pipeline.hset(`${prefix}:${name}:meta`, 'opts.maxLenEvents', '10000', 'version', 'bullmq:6.7.0');
  await pipeline.exec();
}

const names = (body: { queues: Array<{ name: string }> }) => body.queues.map((queue) => queue.name);

describe('discovery of 1,000 queues among other keys', () => {
  const fixture = storeFixture();
  const other = storeFixture();
  let app: TestApp;
  const created = Array.from({ length: 1000 }, (_, i) => `queue-${String(i).padStart(4, '0')}`);

  beforeAll(async () => {
    await createQueues(fixture.redis, fixture.prefix, created);
    // Job-like keys and a meta key under a prefix the connection does not have: SCAN MATCH must skip them.
    const noise = fixture.redis.pipeline();
    for (let i = 0; i < 5000; i += 1) noise.set(`${fixture.prefix}:queue-0001:${i}`, 'x');
    noise.hset(`${fixture.prefix}x:stranger:meta`, 'version', 'bullmq:6.7.0');
    await noise.exec();
    app = await bootApp({
      env: { ...fixture.env, SERVICE_REDIS_URL_MAIN_PREFIX: `${fixture.prefix},${other.prefix}` },
    });
  });

  afterAll(async () => {
    await app.close();
    await fixture.redis.del(`${fixture.prefix}x:stranger:meta`);
    await fixture.cleanup();
    await other.cleanup();
  });

  it('lists every queue exactly once, page by page, with the exact total', async () => {
    const seen: string[] = [];
    const timings: number[] = [];
    for (let page = 1; page <= 10; page += 1) {
      const started = performance.now();
      const response = await request(`${app.api}/c/main/queues?page=${page}&pageSize=100`);
      timings.push(performance.now() - started);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: 1000, page, pageSize: 100, totalPages: 10, hasMore: page < 10 });
      expect(response.body.queues).toHaveLength(100);
      seen.push(...names(response.body));
    }
    expect(seen).toEqual(created);
    const beyond = await request(`${app.api}/c/main/queues?page=11&pageSize=100`);
    expect(beyond.body).toMatchObject({ total: 1000, queues: [], hasMore: false });
    const client = app.services.stores.handle((await app.services.connections.find('main'))!).client;
    const sent = await commandsDuring(client, () => request(`${app.api}/c/main/queues?page=3&pageSize=100`));
    expect(sent).toEqual(['evalsha']);
    const sorted = await commandsDuring(client, () =>
      request(`${app.api}/c/main/queues?page=3&pageSize=100&sort=failed`),
    );
    expect(sorted).toEqual(['evalsha', 'evalsha']);
    // A state, a count sort and the totals together read the tracked counts: once they caught up (the
    // sort above started them), only the page's call for the 1,000 queues.
    const store = app.services.stores.handle((await app.services.connections.find('main'))!);
    const refs = await app.services.queueDirectory.list(store);
    for (let tries = 0; !(await store.counts.totals(refs)); tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const found = await commandsDuring(client, () =>
      request(`${app.api}/c/main/queues?state=idle&sort=failed&totals=true&pageSize=100`),
    );
    expect(found).toEqual(['evalsha']);
    console.info(
      `1,000 queues, 5,000 other keys: first page ${timings[0]!.toFixed(0)} ms (scan), later pages ${Math.max(...timings.slice(1)).toFixed(0)} ms at most`,
    );
  });

  it('finds queues under every prefix of the connection, a custom one included', async () => {
    const queue = new Queue('custom-prefixed', other.bullmq);
    await queue.add('job', {});
    await queue.close();
    await app.services.queueDirectory.rescan(
      app.services.stores.handle((await app.services.connections.find('main'))!),
    );
    const response = await request(`${app.api}/c/main/queues?search=custom`);
    expect(response.body.queues).toEqual([
      {
        name: 'custom-prefixed',
        prefix: other.prefix,
        isPaused: false,
        jobCounts: {
          waiting: 1,
          active: 0,
          delayed: 0,
          completed: 0,
          failed: 0,
          paused: 0,
          prioritized: 0,
          waitingChildren: 0,
        },
      },
    ]);
    expect((await request(`${app.api}/c/main/queues?pageSize=1`)).body.total).toBe(1001);
  });

  it('answers 400 for pageSize above 100 (no silent capping)', async () => {
    const response = await request(`${app.api}/c/main/queues?pageSize=101`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('pageSize') });
  });
});

describe('search, sort and the name cache', () => {
  const fixture = storeFixture();
  let app: TestApp;
  const queues: Queue[] = [];

  beforeAll(async () => {
    queues.push(
      await seedQueue(fixture.bullmq, 'mail', { failed: 3, waiting: 1 }),
      await seedQueue(fixture.bullmq, 'Mailer', { failed: 1, waiting: 4 }),
      await seedQueue(fixture.bullmq, 'billing', { failed: 2, waiting: 2 }),
      await seedQueue(fixture.bullmq, 'audit', { waiting: 3 }),
    );
    await queues[3]!.pause();
    app = await bootApp({ env: { ...fixture.env, SERVICE_QUEUE_LIST_CACHE_MS: '60000' } });
  });

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await app.close();
    await fixture.cleanup();
  });

  const list = async (query: string) => {
    const r = await request(`${app.api}/c/main/queues?${query}`);
    if (r.status !== 200) console.log(r.body);
    return r.body;
  };

  it('searches names case-insensitively', async () => {
    const body = await list('search=MAIL');
    expect([names(body), body.total]).toEqual([['Mailer', 'mail'], 2]);
  });

  it('sorts by name, by a count (largest first by default) and in either order', async () => {
    expect(names(await list(''))).toEqual(['Mailer', 'audit', 'billing', 'mail']);
    expect(names(await list('sort=name&order=desc'))).toEqual(['mail', 'billing', 'audit', 'Mailer']);
    // Pages by name are slices of the sorted names, from either end.
    expect(names(await list('order=desc&pageSize=3'))).toEqual(['mail', 'billing', 'audit']);
    const last = await list('order=desc&pageSize=3&page=2');
    expect([names(last), last.total, last.hasMore]).toEqual([['Mailer'], 4, false]);
    expect(names(await list('order=desc&pageSize=3&page=3'))).toEqual([]);
    expect(names(await list('search=mail&order=desc&pageSize=1&page=2'))).toEqual(['Mailer']);
    expect(names(await list('search=mail&pageSize=1&page=2'))).toEqual(['mail']);
    expect(names(await list('sort=failed'))).toEqual(['mail', 'billing', 'Mailer', 'audit']);
    expect(names(await list('sort=waiting&order=asc'))).toEqual(['mail', 'billing', 'audit', 'Mailer']);
    const paged = await list('sort=failed&page=2&pageSize=2');
    expect([names(paged), paged.hasMore]).toEqual([['Mailer', 'audit'], false]);
  });

  it('reports the pause flag with the counts of the page', async () => {
    const body = await list('search=audit');
    expect(body.queues[0]).toMatchObject({ name: 'audit', isPaused: true, jobCounts: { waiting: 3 } });
  });

  it('lists a queue the service created by adding a job at once', async () => {
    const added = await request(`${app.api}/c/main/queues/brand-new/jobs`, {
      method: 'POST',
      body: { name: 'first', data: {} },
    });
    expect(added.status).toBe(201);
    expect(names(await list('search=brand'))).toEqual(['brand-new']);
    await request(`${app.api}/c/main/queues/brand-new/obliterate`, {
      method: 'POST',
      body: { confirmName: 'brand-new' },
    });
  });

  it('keeps names for the cache period, drops a queue the service removes at once, and finds others on a rescan', async () => {
    expect((await list('')).total).toBe(4);
    const late = new Queue('late', fixture.bullmq);
    queues.push(late);
    await late.add('job', {});
    expect((await list('')).total).toBe(4);
    const obliterated = await request(`${app.api}/c/main/queues/billing/obliterate`, {
      method: 'POST',
      body: { confirmName: 'billing' },
    });
    expect(obliterated.status).toBe(200);
    expect(names(await list(''))).toEqual(['Mailer', 'audit', 'mail']);
    await app.services.queueDirectory.rescan(
      app.services.stores.handle((await app.services.connections.find('main'))!),
    );
    expect(names(await list(''))).toEqual(['Mailer', 'audit', 'late', 'mail']);
  });
});
