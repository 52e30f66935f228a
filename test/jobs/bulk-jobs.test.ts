import { Queue, Worker, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { actOnStatus } from '../../routers/jobs/bulk/status-batches.js';
import { queueUrl, waitFor } from '../helpers/jobs.js';
import { app, fixture, post, settledQueue, states, useBulkApp } from './support/settled-queues.js';

useBulkApp();

describe('POST /jobs/retry', () => {
  it('retries exactly the named jobs, reporting each id', async () => {
    const { queue, ids } = await settledQueue('retry', [
      { name: 'f1', fail: true },
      { name: 'f2', fail: true },
      { name: 'f3', fail: true },
      { name: 'c1' },
      { name: 'c2' },
    ]);
    const delayed = await queue.add('d1', {}, { delay: 60_000 });
    const { status, body } = await post(`${queueUrl(app, fixture, 'retry')}/jobs/retry`, {
      jobIds: [ids.f1, ids.c1, delayed.id, 'missing', ids.f1],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ succeeded: 2, failed: 2 });
    expect(body.results).toEqual([
      { jobId: ids.f1, ok: true },
      { jobId: ids.c1, ok: true },
      { jobId: delayed.id, ok: false, code: 'INVALID_STATE', error: expect.stringContaining('delayed') },
      { jobId: 'missing', ok: false, code: 'NOT_FOUND', error: expect.stringContaining('missing') },
    ]);
    expect(await states(queue, [ids.f1!, ids.c1!, ids.f2!, ids.f3!, ids.c2!, delayed.id!])).toEqual([
      'waiting',
      'waiting',
      'failed',
      'failed',
      'completed',
      'delayed',
    ]);
    await queue.close();
  });

  it('retries every failed job with { status, all: true }', async () => {
    const { queue } = await settledQueue('retry-all', [
      { name: 'a', fail: true },
      { name: 'b', fail: true },
      { name: 'c' },
    ]);
    const { body } = await post(`${queueUrl(app, fixture, 'retry-all')}/jobs/retry`, { status: 'failed', all: true });
    expect(body).toEqual({ results: [], succeeded: 2, failed: 0, status: 'failed', remaining: 0, done: true });
    expect(await queue.getJobCounts('failed', 'completed', 'wait')).toEqual({ failed: 0, completed: 1, wait: 2 });
    await queue.close();
  });

  it('stops at the batch cap and says the work is not done', async () => {
    const { queue } = await settledQueue('capped', [
      { name: 'a', fail: true },
      { name: 'b', fail: true },
      { name: 'c', fail: true },
    ]);
    const retryOne = async () => {
      const [job] = await queue.getFailed(0, 0);
      await (job as Job).retry('failed');
      return { more: (await queue.getFailedCount()) > 0 };
    };
    const outcome = await actOnStatus(queue, 'failed', retryOne, 2);
    expect(outcome).toMatchObject({ succeeded: 2, remaining: 1, done: false });
    await queue.close();
  });
});

describe('POST /jobs/remove', () => {
  it('removes the named jobs and refuses a locked active one per id', async () => {
    const queue = new Queue('locked', fixture.bullmq);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker('locked', () => released, fixture.bullmq);
    const active = await queue.add('busy', {});
    await waitFor(async () => (await queue.getJobState(active.id!)) === 'active', 10_000, 'the job to become active');
    const waiting = await queue.add('idle', {});
    const { status, body } = await post(`${queueUrl(app, fixture, 'locked')}/jobs/remove`, {
      jobIds: [active.id, waiting.id, 'missing'],
    });
    expect(status).toBe(200);
    expect(body.results).toEqual([
      { jobId: active.id, ok: false, code: 'LOCKED', error: expect.stringContaining('locked') },
      { jobId: waiting.id, ok: true },
      { jobId: 'missing', ok: false, code: 'NOT_FOUND', error: expect.any(String) },
    ]);
    expect([body.succeeded, body.failed]).toEqual([1, 2]);
    expect(await queue.getJob(waiting.id!)).toBeUndefined();
    expect(await queue.getJobState(active.id!)).toBe('active');
    release();
    await worker.close();
    await queue.close();
  });

  it('removes every completed job with { status, all: true }, and nothing else', async () => {
    const { queue } = await settledQueue('remove-all', [{ name: 'a' }, { name: 'b' }, { name: 'c', fail: true }]);
    const { body } = await post(`${queueUrl(app, fixture, 'remove-all')}/jobs/remove`, {
      status: 'completed',
      all: true,
    });
    expect(body).toMatchObject({ succeeded: 2, remaining: 0, done: true });
    expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 1 });
    await queue.close();
  });
});

describe('POST /jobs/invoke', () => {
  it('promotes the named delayed jobs, replacing their data, and refuses others', async () => {
    const queue = new Queue('invoke', fixture.bullmq);
    const [d1, d2, d3] = await Promise.all([1, 2, 3].map((n) => queue.add(`d${n}`, { n }, { delay: 60_000 })));
    const waiting = await queue.add('w', { n: 0 });
    const { body } = await post(`${queueUrl(app, fixture, 'invoke')}/jobs/invoke`, {
      jobIds: [d1!.id, d2!.id, waiting.id],
      data: { replaced: true },
    });
    expect(body.results).toEqual([
      { jobId: d1!.id, ok: true },
      { jobId: d2!.id, ok: true },
      { jobId: waiting.id, ok: false, code: 'INVALID_STATE', error: expect.stringContaining('waiting') },
    ]);
    expect(await states(queue, [d1!.id!, d2!.id!, d3!.id!])).toEqual(['waiting', 'waiting', 'delayed']);
    expect((await queue.getJob(d1!.id!))!.data).toEqual({ replaced: true });
    expect((await queue.getJob(d3!.id!))!.data).toEqual({ n: 3 });
    expect((await queue.getJob(waiting.id!))!.data).toEqual({ n: 0 });

    const all = await post(`${queueUrl(app, fixture, 'invoke')}/jobs/invoke`, { status: 'delayed', all: true });
    expect(all.body).toMatchObject({ succeeded: 1, remaining: 0, done: true });
    expect(await queue.getJobState(d3!.id!)).toBe('waiting');
    await queue.close();
  });
});

describe('bulk input rules', () => {
  it('rejects 101 ids with 400 and changes nothing', async () => {
    const { queue, ids } = await settledQueue('too-many', [{ name: 'f', fail: true }]);
    const jobIds = [ids.f!, ...Array.from({ length: 100 }, (_, n) => `pad-${n}`)];
    for (const action of ['retry', 'remove', 'invoke']) {
      const { status, body } = await post(`${queueUrl(app, fixture, 'too-many')}/jobs/${action}`, { jobIds });
      expect(status, action).toBe(400);
      expect(body.message).toContain('jobIds');
    }
    expect(await queue.getJobState(ids.f!)).toBe('failed');
    const hundred = await post(`${queueUrl(app, fixture, 'too-many')}/jobs/retry`, { jobIds: jobIds.slice(0, 100) });
    expect([hundred.status, hundred.body.succeeded, hundred.body.failed]).toEqual([200, 1, 99]);
    await queue.close();
  });

  it('names the field of a malformed request', async () => {
    // The queue exists: a missing one is a 404 before the body is read.
    const { queue } = await settledQueue('shapes', [{ name: 'c' }]);
    const url = `${queueUrl(app, fixture, 'shapes')}/jobs`;
    const cases: Array<[string, unknown, string]> = [
      ['retry', {}, 'jobIds'],
      ['retry', { jobIds: [] }, 'jobIds'],
      ['retry', { status: 'failed' }, 'all'],
      ['retry', { status: 'active', all: true }, 'status'],
      ['retry', { jobIds: ['a'], status: 'failed', all: true }, 'jobIds'],
      ['invoke', { status: 'delayed', all: true, data: {} }, 'data'],
      ['remove', { jobIds: [''] }, 'jobIds'],
    ];
    for (const [action, body, field] of cases) {
      const response = await post(`${url}/${action}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toContain(field);
    }
    await queue.close();
  });
});
