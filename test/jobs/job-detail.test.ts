import { FlowProducer, Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { queueUrl, waitFor } from '../helpers/jobs.js';
import { storeFixture } from '../helpers/stores.js';
import { commandsDuring } from '../helpers/command-count.js';

const fixture = storeFixture();
const queueName = 'detail';
let app: TestApp;
let queue: Queue;
let base: string;
let failedId: string;

beforeAll(async () => {
  app = await bootApp({ env: fixture.env });
  base = queueUrl(app, fixture, queueName);
  queue = new Queue(queueName, fixture.bullmq);
  const job = await queue.add('flaky', { task: 'charge' }, { attempts: 2 });
  failedId = job.id!;
  const worker = new Worker(
    queueName,
    async (current) => {
      for (let line = 0; line < 5; line++) await current.log(`attempt ${current.attemptsMade + 1} line ${line}`);
      throw new Error(`card declined on attempt ${current.attemptsMade + 1}`);
    },
    fixture.bullmq,
  );
  await waitFor(async () => (await queue.getJobState(failedId)) === 'failed', 15_000, 'the job to fail twice');
  await worker.close();
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await fixture.cleanup();
});

describe('GET /jobs/:jobId', () => {
  it('returns the job in full', async () => {
    const { status, body } = await request(`${base}/jobs/${failedId}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: failedId,
      name: 'flaky',
      data: { task: 'charge' },
      opts: { attempts: 2 },
      state: 'failed',
      failedReason: 'card declined on attempt 2',
      attemptsMade: 2,
      attemptsStarted: 2,
      logsCount: 10,
      returnvalue: null,
    });
    expect(body.stacktrace).toHaveLength(2);
    expect(body.parent).toBeUndefined();
    expect(body.children).toBeUndefined();
  });

  it('answers 404 for a job that does not exist, on every job route', async () => {
    for (const suffix of ['', '/logs', '/stacktraces', '/tree']) {
      const { status, body } = await request(`${base}/jobs/nope${suffix}`);
      expect(status, suffix).toBe(404);
      expect(body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"nope"') });
    }
    expect((await request(`${base}/jobs/nope/logs`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('round trips', () => {
  const storeClient = async () => app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!).client;

  it('reads a detail in one Redis command and a range of logs in one', async () => {
    await request(`${base}/jobs/${failedId}`); // opens the store and caches the scripts
    await request(`${base}/jobs/${failedId}/logs`);
    const client = await storeClient();
    const detail = await commandsDuring(client, () => request(`${base}/jobs/${failedId}`));
    expect(detail).toEqual(['evalsha']);
    const logs = await commandsDuring(client, () => request(`${base}/jobs/${failedId}/logs?start=0&end=2`));
    expect(logs).toEqual(['evalsha']);
  });

  it('answers 404 naming the queue when the queue does not exist, in that same command', async () => {
    const { status, body } = await request(`${queueUrl(app, fixture, 'no-such-queue')}/jobs/${failedId}`);
    expect([status, body.code, body.message]).toEqual([404, 'NOT_FOUND', expect.stringContaining('Queue "no-such-queue"')]);
    const logs = await request(`${queueUrl(app, fixture, 'no-such-queue')}/jobs/${failedId}/logs`);
    expect([logs.status, logs.body.message]).toEqual([404, expect.stringContaining('Queue "no-such-queue"')]);
  });

  it('gives, from the script, the very 404 body the queue middleware gives (with and without a prefix), and still refuses a foreign prefix', async () => {
    const missing = queueUrl(app, fixture, 'no-such-queue');
    for (const prefix of [undefined, fixture.prefix]) {
      const query = (first: string) => (prefix === undefined ? first : `${first}${first ? '&' : '?'}prefix=${encodeURIComponent(prefix)}`);
      // GET /queues/{queueName} resolves its queue in the middleware (an EXISTS round trip).
      const resolved = await request(`${missing}${query('')}`);
      expect(resolved.status).toBe(404);
      for (const path of [`/jobs/${failedId}${query('')}`, `/jobs/${failedId}/logs${query('')}`, `/jobs${query('?status=completed')}`]) {
        const answer = await request(`${missing}${path}`);
        expect([answer.status, answer.body], path).toEqual([404, resolved.body]);
      }
    }
    const foreign = await request(`${base}/jobs/${failedId}?prefix=elsewhere`);
    expect([foreign.status, foreign.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('logs and stack traces', () => {
  it('reads a range of log lines with the total count', async () => {
    const { body } = await request(`${base}/jobs/${failedId}/logs?start=4&end=5`);
    expect(body).toEqual({ logs: ['attempt 1 line 4', 'attempt 2 line 0'], count: 10 });
    const bad = await request(`${base}/jobs/${failedId}/logs?start=0&end=5000`);
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('1000')]);
  });

  it('returns one stack trace per failed attempt', async () => {
    const { body } = await request(`${base}/jobs/${failedId}/stacktraces`);
    expect(body.attemptsMade).toBe(2);
    expect(body.failedReason).toBe('card declined on attempt 2');
    expect(body.stacktraces).toHaveLength(2);
    expect(body.stacktraces[0]).toMatch(/^Error: card declined on attempt 1\n\s+at /);
  });

  it('clears logs, keeping the newest lines when asked', async () => {
    const job = await queue.add('logged', {});
    for (let line = 0; line < 6; line++) await job.log(`line ${line}`);
    const kept = await request(`${base}/jobs/${job.id}/logs?keep=2`, { method: 'DELETE' });
    expect([kept.status, kept.body]).toEqual([200, { success: true, count: 2 }]);
    expect((await queue.getJobLogs(job.id!)).logs).toEqual(['line 4', 'line 5']);
    const cleared = await request(`${base}/jobs/${job.id}/logs`, { method: 'DELETE' });
    expect(cleared.body).toEqual({ success: true, count: 0 });
  });
});

describe('POST /jobs', () => {
  it('adds a job and answers 201 with its summary', async () => {
    const { status, body } = await request(`${base}/jobs`, {
      method: 'POST',
      body: { name: 'send', data: { to: 'a@b.c' }, jobId: 'send-1', delay: 60_000, attempts: 3, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: 10 },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: 'send-1', name: 'send', state: 'delayed', data: { to: 'a@b.c' }, delay: 60_000 });
    const stored = await queue.getJob('send-1');
    expect(stored!.opts).toMatchObject({ attempts: 3, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: 10 });
  });

  it('honours priority and lifo', async () => {
    const prioritized = await request(`${base}/jobs`, { method: 'POST', body: { name: 'p', priority: 5 } });
    expect(prioritized.body).toMatchObject({ state: 'prioritized', priority: 5 });
    await queue.add('first', {});
    const lifo = await request(`${base}/jobs`, { method: 'POST', body: { name: 'jump', lifo: true } });
    const waiting = await queue.getRanges(['wait'], 0, -1, false);
    expect(waiting.at(-1)).toBe(lifo.body.id);
  });

  it('rejects invalid options with 400 naming the field, adding nothing', async () => {
    const before = await queue.count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ data: {} }, 'name'],
      [{ name: 'x', delay: -1 }, 'delay'],
      [{ name: 'x', priority: 1.5 }, 'priority'],
      [{ name: 'x', priority: 3_000_000 }, 'priority'],
      [{ name: 'x', attempts: 0 }, 'attempts'],
      [{ name: 'x', backoff: { type: 'linear', delay: 5 } }, 'backoff.type'],
      [{ name: 'x', jobId: '42' }, 'jobId'],
      [{ name: 'x', jobId: 'a:b' }, 'jobId'],
      [{ name: 'x', removeOnFail: 'yes' }, 'removeOnFail'],
      [{ name: 'x', lifo: 'true' }, 'lifo'],
    ];
    for (const [body, field] of cases) {
      const response = await request(`${base}/jobs`, { method: 'POST', body });
      expect(response.status, field).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toContain(field);
    }
    expect(await queue.count()).toBe(before);
  });

  it('refuses an existing jobId with 409 and leaves the job alone', async () => {
    const { status, body } = await request(`${base}/jobs`, { method: 'POST', body: { name: 'other', jobId: 'send-1', data: { replaced: true } } });
    expect([status, body.code]).toEqual([409, 'CONFLICT']);
    expect((await queue.getJob('send-1'))!.data).toEqual({ to: 'a@b.c' });
  });

  it('applies the 1 MB body limit', async () => {
    const { status, body } = await request(`${base}/jobs`, { method: 'POST', body: { name: 'huge', data: 'x'.repeat(1_100_000) } });
    expect([status, body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('documents the 201 in the OpenAPI document', async () => {
    const { body } = await request(`${app.api}/openapi.json`);
    const operation = body.paths['/c/{connectionId}/queues/{queueName}/jobs'].post;
    expect(Object.keys(operation.responses)).toContain('201');
    expect(Object.keys(operation.responses)).not.toContain('200');
  });
});

describe('flows', () => {
  let flows: FlowProducer;
  let parentId: string;
  beforeAll(async () => {
    flows = new FlowProducer(fixture.bullmq);
    const tree = await flows.add({
      name: 'assemble',
      queueName,
      data: {},
      children: [
        { name: 'wheel', queueName: 'parts', data: { n: 1 } },
        { name: 'wheel', queueName: 'parts', data: { n: 2 } },
        { name: 'frame', queueName: 'parts', data: {}, children: [{ name: 'weld', queueName: 'welding', data: {} }] },
      ],
    });
    parentId = tree.job.id!;
  });
  afterAll(() => flows.close());

  it('shows children in the parent and the parent in a child', async () => {
    const { body: parent } = await request(`${base}/jobs/${parentId}`);
    expect(parent.state).toBe('waitingChildren');
    expect(parent.children.counts).toEqual({ processed: 0, unprocessed: 3, failed: 0, ignored: 0 });
    expect(parent.children.truncated).toBe(false);
    const names = parent.children.items.map((child: { name: string; queueName: string }) => `${child.queueName}/${child.name}`).sort();
    expect(names).toEqual(['parts/frame', 'parts/wheel', 'parts/wheel']);
    const wheel = parent.children.items.find((child: { name: string }) => child.name === 'wheel');
    expect(wheel).toMatchObject({ prefix: fixture.prefix, state: 'waiting' });
    const { body: child } = await request(`${queueUrl(app, fixture, 'parts')}/jobs/${wheel.id}`);
    expect(child.parent).toMatchObject({ id: parentId, queueName, prefix: fixture.prefix, name: 'assemble', state: 'waitingChildren' });
  });

  it('returns the tree, bounded in depth and breadth', async () => {
    const { body: full } = await request(`${base}/jobs/${parentId}/tree`);
    expect(full.nodes).toBe(5);
    const frame = full.root.children.find((node: { name: string }) => node.name === 'frame');
    expect(frame).toMatchObject({ childrenTotal: 1, truncated: false, state: 'waitingChildren' });
    expect(frame.children[0]).toMatchObject({ name: 'weld', queueName: 'welding', childrenTotal: 0, children: [] });

    const { body: shallow } = await request(`${base}/jobs/${parentId}/tree?depth=1&maxChildren=2`);
    expect(shallow.nodes).toBe(3);
    expect(shallow.root).toMatchObject({ childrenTotal: 3, truncated: true });
    for (const node of shallow.root.children) expect(node.children).toEqual([]);
    const bad = await request(`${base}/jobs/${parentId}/tree?depth=11`);
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('depth')]);
  });
});
