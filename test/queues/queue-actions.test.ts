import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture, seeded } = bed;

const queueUrl = (name: string, rest = '') => `${bed.app.api}/c/main/queues/${encodeURIComponent(name)}${rest}`;
const post = (name: string, action: string, body: unknown = {}) =>
  request(queueUrl(name, `/${action}`), { method: 'POST', body });
const actionLines = (queue: string) =>
  bed.app.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'queue.action' && line.queue === queue);

describe('pause and resume', () => {
  it('pauses and resumes the queue globally', async () => {
    const queue = await seeded('switch', { waiting: 1 });
    const paused = await post('switch', 'pause');
    expect(paused).toMatchObject({ status: 200, body: { success: true, isPaused: true } });
    expect(await queue.isPaused()).toBe(true);
    expect((await request(queueUrl('switch'))).body.isPaused).toBe(true);
    const resumed = await post('switch', 'resume');
    expect(resumed).toMatchObject({ status: 200, body: { success: true, isPaused: false } });
    expect(await queue.isPaused()).toBe(false);
  });

  it('answers 404 for an unknown queue without creating it', async () => {
    expect((await post('nobody', 'pause')).status).toBe(404);
    expect(await fixture.redis.exists(`${fixture.prefix}:nobody:meta`)).toBe(0);
  });
});

describe('POST /queues/:queueName/clean', () => {
  it('removes up to limit jobs of one status and names them', async () => {
    const queue = await seeded('tidy', { completed: 2, failed: 3, waiting: 2 });
    const failedIds = new Set((await queue.getFailed()).map((job) => job.id));
    const response = await post('tidy', 'clean', { status: 'failed', limit: 2 });
    expect(response.status).toBe(200);
    expect(response.body.removed).toBe(2);
    expect(response.body.removedJobIds.every((id: string) => failedIds.has(id))).toBe(true);
    expect(await queue.getJobCounts('failed', 'completed', 'waiting')).toEqual({ failed: 1, completed: 2, waiting: 2 });
    expect(actionLines('tidy')).toEqual([
      expect.objectContaining({ action: 'queues.clean', removed: { status: 'failed', count: 2 } }),
    ]);
  });

  it('maps waiting to BullMQ wait and keeps jobs inside the grace period', async () => {
    const queue = await seeded('grace', { waiting: 2 });
    expect((await post('grace', 'clean', { status: 'waiting', gracePeriod: 3_600_000 })).body.removed).toBe(0);
    expect((await post('grace', 'clean', { status: 'waiting' })).body.removed).toBe(2);
    expect(await queue.getWaitingCount()).toBe(0);
  });

  it.each([
    [{ status: 'failed', limit: 1001 }],
    [{ status: 'failed', limit: 0 }],
    [{ status: 'stuck' }],
    [{ status: 'all' }],
    [{ status: 'failed', gracePeriod: -1 }],
  ])('answers 400 for %j', async (body) => {
    await seeded('strict', { failed: 1 });
    const response = await post('strict', 'clean', body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('can-delete and DELETE', () => {
  it('refuses while jobs other than completed remain: 409, nothing removed', async () => {
    const queue = await seeded('busy', { completed: 1, failed: 1, waiting: 1 });
    const check = await request(queueUrl('busy', '/can-delete'));
    expect(check.body).toMatchObject({
      canDelete: false,
      reason: expect.stringContaining('1 failed'),
      jobCounts: { waiting: 1, failed: 1, completed: 1 },
    });
    const refused = await request(queueUrl('busy', '?confirmName=busy'), { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'QUEUE_NOT_EMPTY', jobCounts: { waiting: 1, failed: 1 } });
    expect(await queue.getJobCounts('waiting', 'failed', 'completed')).toEqual({ waiting: 1, failed: 1, completed: 1 });
  });

  it('answers 400 when confirmName differs or is missing, removing nothing', async () => {
    await seeded('careful', { completed: 1 });
    expect((await request(queueUrl('careful', '?confirmName=Careful'), { method: 'DELETE' })).body.code).toBe(
      'CONFIRMATION_MISMATCH',
    );
    expect((await request(queueUrl('careful'), { method: 'DELETE', body: { confirmName: 'other' } })).status).toBe(400);
    expect((await request(queueUrl('careful'), { method: 'DELETE' })).status).toBe(400);
    expect(await fixture.redis.exists(`${fixture.prefix}:careful:meta`)).toBe(1);
  });

  it.each([
    ['the query string', (name: string) => [queueUrl(name, `?confirmName=${name}`), {}] as const],
    ['a JSON body', (name: string) => [queueUrl(name), { body: { confirmName: name } }] as const],
  ])('deletes a queue holding only completed jobs, confirmName in %s', async (_how, build) => {
    const name = `done-${_how.length}`;
    await seeded(name, { completed: 2 });
    expect((await request(queueUrl(name, '/can-delete'))).body).toEqual({
      canDelete: true,
      jobCounts: expect.objectContaining({ completed: 2 }),
    });
    const [url, init] = build(name);
    const response = await request(url, { method: 'DELETE', ...init });
    expect(response).toMatchObject({
      status: 200,
      body: { success: true, deleted: name, prefix: fixture.prefix, removedJobCounts: { completed: 2, failed: 0 } },
    });
    expect(await fixture.redis.keys(`${fixture.prefix}:${name}:*`)).toEqual([]);
    expect((await request(queueUrl(name))).status).toBe(404);
    expect(actionLines(name)).toEqual([expect.objectContaining({ action: 'queues.delete', outcome: 'done' })]);
  });
});

describe('POST /queues/:queueName/obliterate', () => {
  it('without confirmName (400 VALIDATION_FAILED) or with a different one (400 CONFIRMATION_MISMATCH) removes nothing', async () => {
    await seeded('kept', { waiting: 1, delayed: 1 });
    const keysBefore = (await fixture.redis.keys(`${fixture.prefix}:kept:*`)).sort();
    expect(keysBefore.length).toBeGreaterThan(3);
    const absent = await post('kept', 'obliterate', {});
    expect(absent.status).toBe(400);
    expect(absent.body.code).toBe('VALIDATION_FAILED');
    expect(absent.body.message).toContain('confirmName');
    const wrong = await post('kept', 'obliterate', { confirmName: 'kept2' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('CONFIRMATION_MISMATCH');
    expect((await fixture.redis.keys(`${fixture.prefix}:kept:*`)).sort()).toEqual(keysBefore);
  });

  it('removes the queue and all its keys once confirmName equals its name', async () => {
    await seeded('gone', { completed: 1, failed: 1, waiting: 2, delayed: 1 });
    await seeded('gone-too', { waiting: 1 });
    expect((await post('gone', 'obliterate', { confirmName: 'gone' })).body).toEqual({
      success: true,
      queueName: 'gone',
      prefix: fixture.prefix,
      removedJobCounts: {
        waiting: 2,
        active: 0,
        delayed: 1,
        completed: 1,
        failed: 1,
        paused: 0,
        prioritized: 0,
        waitingChildren: 0,
      },
    });
    expect((await post('gone-too', 'obliterate', { confirmName: 'gone-too' })).status).toBe(200);
    expect(await fixture.redis.keys(`${fixture.prefix}:gone*`)).toEqual([]);
    expect(actionLines('gone')).toEqual([
      expect.objectContaining({
        action: 'queues.obliterate',
        removed: { queue: true, jobCounts: expect.objectContaining({ waiting: 2, failed: 1 }) },
      }),
    ]);
  });
});
