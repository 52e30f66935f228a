import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnectionMetrics } from '../../routers/metrics/get-connection-metrics.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

const queueCount = 250;
const queueName = (index: number) => `q${String(index).padStart(4, '0')}`;

/** Issue 36: at 100,000 queues the whole summary was over SERVICE_MAX_RESPONSE_BYTES (422): `queues` is paged there. */
describe.each([
  ['tracked counts', 'true'],
  ['counted totals', 'false'],
])('GET /metrics paged, totals from %s', (_, tracking) => {
  const fixture = storeFixture();
  let app: TestApp;
  let url: string;

  beforeAll(async () => {
    app = await bootApp({ env: { ...fixture.env, SERVICE_QUEUE_TOTALS_TRACKING: tracking } });
    url = `${app.api}/c/${fixture.connectionId}/metrics`;
    const pipeline = fixture.redis.pipeline();
    for (let index = 0; index < queueCount; index++) {
      const key = (type: string) => `${fixture.prefix}:${queueName(index)}:${type}`;
      pipeline.hset(key('meta'), 'opts.maxLenEvents', '10000', ...(index === 120 ? ['paused', '1'] : []));
      for (let job = 0; job < index % 3; job++) pipeline.rpush(key('wait'), `${job}`);
      pipeline.zadd(key('failed'), 1, 'f');
    }
    await pipeline.exec();
    const store = app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!);
    const refs = await app.services.queueDirectory.list(store);
    if (tracking === 'true')
      for (let tries = 0; !(await store.counts.totals(refs)); tries++) {
        expect(tries).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
  });
  afterAll(async () => {
    await app.close();
    await fixture.cleanup();
  });

  it('answers one page of queues in name order, with every queue’s totals and the next cursor', async () => {
    const whole = (await request(url)).body;
    expect(whole).not.toHaveProperty('nextCursor');
    const first = await request(`${url}?limit=100`);
    expect(first.status).toBe(200);
    expect(first.body.queueCount).toBe(queueCount);
    expect(first.body.totals).toEqual(whole.totals);
    expect(first.body.totals.failed).toBe(queueCount);
    expect(first.body.queues.map((queue: { queueName: string }) => queue.queueName)).toEqual(
      whole.queues.slice(0, 100).map((queue: { queueName: string }) => queue.queueName),
    );
    expect(first.body).toMatchObject({ total: queueCount, page: 1, pageSize: 100, totalPages: 3, hasMore: true });
    const second = (await request(`${url}?limit=100&cursor=${first.body.nextCursor}`)).body;
    expect(second.queues[0].queueName).toBe(queueName(100));
    expect(second.queues[20]).toEqual(whole.queues[120]);
    expect(second.queues[20].isPaused).toBe(true);
    const last = (await request(`${url}?limit=100&cursor=${second.nextCursor}`)).body;
    expect(last.queues).toHaveLength(50);
    expect(last).toMatchObject({ page: 3, hasMore: false, nextCursor: null });
  });

  it('sees a write in the totals and the page at once', async () => {
    const before = (await request(`${url}?limit=10`)).body;
    await fixture.redis.rpush(`${fixture.prefix}:${queueName(3)}:wait`, 'late');
    const after = (await request(`${url}?limit=10`)).body;
    expect(after.queues[3].counts.waiting).toBe(before.queues[3].counts.waiting + 1);
    await fixture.redis.rpop(`${fixture.prefix}:${queueName(3)}:wait`);
    // Counted totals are served for SERVICE_QUEUE_LIST_CACHE_MS (as the queue list's); tracked ones are exact.
    if (tracking === 'true') expect(after.totals.waiting).toBe(before.totals.waiting + 1);
  });

  it('answers the first page of 1,000 without a limit when the connection has more queues than listed whole', async () => {
    const store = app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!);
    const options = { priorities: [], includePrometheus: false, detailed: false };
    const directory = app.services.queueDirectory;
    const paged = await getConnectionMetrics({
      store,
      directory,
      totals: app.services.queueTotals,
      options,
      allUpTo: 200,
    });
    expect(paged).toMatchObject({ total: queueCount, pageSize: 1000, hasMore: false });
    expect(paged.queues).toHaveLength(queueCount);
    const whole = await getConnectionMetrics({ store, directory, totals: app.services.queueTotals, options });
    expect(whole.nextCursor).toBeUndefined();
    expect(paged.totals).toEqual(whole.totals);
  });

  it.each(['limit=0', 'limit=1001', 'cursor=nonsense'])('answers %s with 400', async (query) => {
    const { status, body } = await request(`${url}?${query}`);
    expect(status).toBe(400);
    expect(body.message).toContain(query.split('=')[0]);
  });
});
