import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { app, base, queue, useFailedJob } from './support/failed-job.js';

/** POST /jobs: adding a job with its options, and what it refuses. */
useFailedJob();

describe('POST /jobs', () => {
  it('adds a job and answers 201 with its summary', async () => {
    const { status, body } = await request(`${base}/jobs`, {
      method: 'POST',
      body: {
        name: 'send',
        data: { to: 'a@b.c' },
        jobId: 'send-1',
        delay: 60_000,
        attempts: 3,
        backoff: { type: 'exponential', delay: 500 },
        removeOnComplete: 10,
      },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: 'send-1', name: 'send', state: 'delayed', data: { to: 'a@b.c' }, delay: 60_000 });
    const stored = await queue.getJob('send-1');
    expect(stored!.opts).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: 10,
    });
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
    const { status, body } = await request(`${base}/jobs`, {
      method: 'POST',
      body: { name: 'other', jobId: 'send-1', data: { replaced: true } },
    });
    expect([status, body.code]).toEqual([409, 'CONFLICT']);
    expect((await queue.getJob('send-1'))!.data).toEqual({ to: 'a@b.c' });
  });

  it('applies the 1 MB body limit', async () => {
    const { status, body } = await request(`${base}/jobs`, {
      method: 'POST',
      body: { name: 'huge', data: 'x'.repeat(1_100_000) },
    });
    expect([status, body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('documents the 201 in the OpenAPI document', async () => {
    const { body } = await request(`${app.api}/openapi.json`);
    const operation = body.paths['/c/{connectionId}/queues/{queueName}/jobs'].post;
    expect(Object.keys(operation.responses)).toContain('201');
    expect(Object.keys(operation.responses)).not.toContain('200');
  });
});
