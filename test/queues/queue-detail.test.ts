import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

// Connection `down`: nothing listens on port 1.
const bed = queueTestBed({ SERVICE_REDIS_URL_DOWN: 'redis://127.0.0.1:1' });
const { fixture, seeded } = bed;

const queueUrl = (name: string, rest = '') => `${bed.app.api}/c/main/queues/${encodeURIComponent(name)}${rest}`;

describe('GET /queues/:queueName', () => {
  it('answers the list entry plus workers, schedulers and meta', async () => {
    const queue = await seeded('detail', { completed: 2, failed: 1, waiting: 3, delayed: 1, prioritized: 2 });
    await queue.setGlobalConcurrency(4);
    await queue.setGlobalRateLimit(10, 2000);
    await queue.upsertJobScheduler('every-hour', { every: 3_600_000 });
    await queue.upsertJobScheduler('every-day', { every: 86_400_000 });
    const worker = new Worker('detail', async () => 'ok', { ...fixture.bullmq, autorun: false, name: 'detail-worker' });
    bed.closeLater(worker);
    await worker.waitUntilReady();

    const response = await request(queueUrl('detail'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'detail',
      prefix: fixture.prefix,
      isPaused: false,
      // An `every` scheduler puts its first job in waiting at once.
      jobCounts: {
        waiting: 5,
        active: 0,
        delayed: 1,
        completed: 2,
        failed: 1,
        paused: 0,
        prioritized: 2,
        waitingChildren: 0,
      },
      schedulersCount: 2,
      meta: { concurrency: 4, max: 10, duration: 2000, version: expect.stringMatching(/^bullmq:6\./) },
    });
    expect(response.body.workers.count).toBe(1);
    expect(response.body.workers.list[0]).toMatchObject({
      name: 'detail-worker',
      clientName: expect.stringMatching(/:w:detail-worker$/),
      addr: expect.any(String),
    });
  });

  it('answers 404 for a queue that does not exist, and does not create it', async () => {
    const response = await request(queueUrl('missing'));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('missing') });
    expect(await fixture.redis.exists(`${fixture.prefix}:missing:meta`)).toBe(0);
  });

  it('answers 400 for a prefix the connection does not have', async () => {
    await seeded('prefixed', { waiting: 1 });
    const response = await request(queueUrl('prefixed', '?prefix=other'));
    expect(response.status).toBe(400);
    expect((await request(queueUrl('prefixed', `?prefix=${fixture.prefix}`))).status).toBe(200);
  });

  it('reads a queue whose name contains ":" (a prefix that itself has a ":")', async () => {
    const queue = new Queue('inner', { ...fixture.bullmq, prefix: `${fixture.prefix}:outer` });
    bed.closeLater(queue);
    await queue.add('job', {});
    const response = await request(queueUrl('outer:inner'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'outer:inner', jobCounts: { waiting: 1 } });
  });
});

describe('a store that is down', () => {
  it.each([
    ['GET', '/queues', undefined],
    ['GET', '/queues/mail', undefined],
    ['POST', '/queues/mail/purge', { confirmName: 'mail', statuses: ['all'] }],
  ])('answers %s %s with 503 STORE_UNAVAILABLE, fast', async (method, path, body) => {
    const started = Date.now();
    const response = await request(`${bed.app.api}/c/down${path}`, { method, body });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'STORE_UNAVAILABLE', connectionId: 'down' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('unknown connection', () => {
  it('answers 404', async () => {
    expect((await request(`${bed.app.api}/c/nowhere/queues`)).status).toBe(404);
  });
});
