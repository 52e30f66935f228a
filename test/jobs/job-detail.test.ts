import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { commandsDuring } from '../helpers/command-count.js';
import { queueUrl } from '../helpers/jobs.js';
import { app, base, failedId, fixture, useFailedJob } from './support/failed-job.js';

/** One job's detail: its fields, 404s on every job route, and what a detail costs in Redis round trips. */
useFailedJob();

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
  const storeClient = async () =>
    app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!).client;

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
    expect([status, body.code, body.message]).toEqual([
      404,
      'NOT_FOUND',
      expect.stringContaining('Queue "no-such-queue"'),
    ]);
    const logs = await request(`${queueUrl(app, fixture, 'no-such-queue')}/jobs/${failedId}/logs`);
    expect([logs.status, logs.body.message]).toEqual([404, expect.stringContaining('Queue "no-such-queue"')]);
  });

  it('gives, from the script, the very 404 body the queue middleware gives (with and without a prefix), and still refuses a foreign prefix', async () => {
    const missing = queueUrl(app, fixture, 'no-such-queue');
    for (const prefix of [undefined, fixture.prefix]) {
      const query = (first: string) =>
        prefix === undefined ? first : `${first}${first ? '&' : '?'}prefix=${encodeURIComponent(prefix)}`;
      // GET /queues/{queueName} resolves its queue in the middleware (an EXISTS round trip).
      const resolved = await request(`${missing}${query('')}`);
      expect(resolved.status).toBe(404);
      for (const path of [
        `/jobs/${failedId}${query('')}`,
        `/jobs/${failedId}/logs${query('')}`,
        `/jobs${query('?status=completed')}`,
      ]) {
        const answer = await request(`${missing}${path}`);
        expect([answer.status, answer.body], path).toEqual([404, resolved.body]);
      }
    }
    const foreign = await request(`${base}/jobs/${failedId}?prefix=elsewhere`);
    expect([foreign.status, foreign.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
