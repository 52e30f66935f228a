import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { spawnRedis, type SpawnedRedis } from '../helpers/spawn-redis.js';

/** A store like some managed providers: CLIENT is not available. Port from this suite's reserved range. */
describe('a store without the CLIENT command', () => {
  let redis: SpawnedRedis;
  let app: TestApp;
  let queue: Queue;
  let worker: Worker;
  const port = 6400;

  beforeAll(async () => {
    redis = await spawnRedis(port, ['--rename-command', 'CLIENT', '""']);
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MANAGED: redis.url,
        SERVICE_QUEUE_LIST_CACHE_MS: '0',
      },
    });
    const connection = { host: '127.0.0.1', port };
    queue = new Queue('payments', { connection });
    await queue.add('charge', {});
    worker = new Worker('payments', async () => 'ok', { connection });
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    await app?.close();
    await redis?.stop();
  });

  it('answers /workers with 200, no workers and a warning naming CLIENT LIST', async () => {
    const { status, body } = await request(`${app.api}/c/managed/workers`);
    expect(status).toBe(200);
    expect(body.workers).toEqual([]);
    expect(body.byQueue).toEqual({});
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]).toMatch(/CLIENT LIST/);
  });

  it('answers queue metrics with 200, workers unknown and the warning', async () => {
    const { status, body } = await request(`${app.api}/c/managed/queues/payments/metrics`);
    expect(status).toBe(200);
    expect(body.state.workers).toBeNull();
    expect(body.warnings.some((warning: string) => /CLIENT LIST/.test(warning))).toBe(true);
    expect(body.counts).toBeTypeOf('object');
  });

  it('answers detailed connection metrics with 200 and the warning', async () => {
    const { status, body } = await request(`${app.api}/c/managed/metrics?detailed=true`);
    expect(status).toBe(200);
    expect(body.queueCount).toBe(1);
    expect(body.warnings.some((warning: string) => /CLIENT LIST/.test(warning))).toBe(true);
    expect(body.detailed[0].state.workers).toBeNull();
  });

  it('counts the list totals without client-side tracking (no CLIENT TRACKING), each list answering what is there now', async () => {
    const list = () => request(`${app.api}/c/managed/queues?totals=true`);
    const first = await list();
    expect(first.status).toBe(200);
    const waitingBefore = first.body.totals.waiting as number;
    await queue.add('refund', {}, { delay: 3_600_000 });
    // SERVICE_QUEUE_LIST_CACHE_MS=0 here: with no tracking, every list counts again.
    const later = await list();
    expect(later.status).toBe(200);
    expect(later.body.totals).toMatchObject({ waiting: waitingBefore, delayed: 1 });
  });
});
