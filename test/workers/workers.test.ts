import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWorker, parseClientList } from '../../server/bullmq/client-list.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

describe('worker client names', () => {
  it('recognises named and unnamed BullMQ workers under the given prefixes only', () => {
    const encoded = Buffer.from('my queue/1').toString('base64');
    expect(matchWorker(`jobs:${encoded}:w:mailer`, ['bull', 'jobs'])).toEqual({
      prefix: 'jobs',
      queueName: 'my queue/1',
      workerName: 'mailer',
    });
    expect(matchWorker(`bull:${encoded}`, ['bull'])).toEqual({
      prefix: 'bull',
      queueName: 'my queue/1',
      workerName: null,
    });
    expect(matchWorker(`other:${encoded}`, ['bull'])).toBeNull();
    expect(matchWorker(`bull:${encoded}:qe`, ['bull'])).toBeNull();
    expect(matchWorker('bullpen', ['bull'])).toBeNull();
  });

  it('parses CLIENT LIST lines into fields', () => {
    expect(parseClientList('id=3 addr=127.0.0.1:5 name=x age=7\nid=4 addr=127.0.0.1:6 name= age=1\n')).toEqual([
      { id: '3', addr: '127.0.0.1:5', name: 'x', age: '7' },
      { id: '4', addr: '127.0.0.1:6', name: '', age: '1' },
    ]);
  });
});

describe('GET /workers', () => {
  const fixture = storeFixture();
  let app: TestApp;
  const workers: Worker[] = [];
  const queue = new Queue('image resize', fixture.bullmq);

  beforeAll(async () => {
    app = await bootApp({ env: fixture.env });
    await queue.add('job', {});
    for (const name of ['resizer-1', undefined]) {
      const worker = new Worker('image resize', async () => 'ok', { ...fixture.bullmq, ...(name ? { name } : {}) });
      workers.push(worker);
      await worker.waitUntilReady();
    }
    const other = new Worker('thumbnails', async () => 'ok', fixture.bullmq);
    workers.push(other);
    await other.waitUntilReady();
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await queue.close();
    await app.close();
    await fixture.cleanup();
  });

  async function workersOnceListed(count: number) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const response = await request(`${app.api}/c/${fixture.connectionId}/workers`);
      if (response.body.workers?.length >= count) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('workers never appeared');
  }

  it('lists live workers with their queue, name and connection facts, counted by queue', async () => {
    const { status, body } = await workersOnceListed(3);
    expect(status).toBe(200);
    expect(body.warnings).toEqual([]);
    expect(body.byQueue).toEqual({ 'image resize': 2, thumbnails: 1 });
    const named = body.workers.find((worker: any) => worker.name === 'resizer-1');
    expect(named).toMatchObject({ queueName: 'image resize', prefix: fixture.prefix, db: 0 });
    expect(named.addr).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(named.age).toBeGreaterThanOrEqual(0);
    expect(body.workers.filter((worker: any) => worker.name === null)).toHaveLength(2);
  });

  it('drops a worker once it closes', async () => {
    await workers[2]!.close();
    for (let attempt = 0; attempt < 50; attempt++) {
      const { body } = await request(`${app.api}/c/${fixture.connectionId}/workers`);
      if (body.byQueue.thumbnails === undefined) return expect(body.byQueue).toEqual({ 'image resize': 2 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('closed worker still listed');
  });

  it('is the same through tRPC', async () => {
    const result = await app.trpc.workers.list.query({ connectionId: fixture.connectionId });
    expect(result.byQueue['image resize']).toBe(2);
  });
});
