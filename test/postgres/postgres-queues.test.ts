import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';

/** The queue routes on a PostgreSQL connection (BullMQ 6's PostgreSQL backend), queues filled by real Workers. */
const bed = postgresBed();
const get = (url: string) => bed.call('GET', url);
const post = (url: string, body: unknown = {}) => bed.call('POST', url, body);

describe('queue list and detail on PostgreSQL', () => {
  it('lists queues with counts, sorts, filters by state and sums totals', async () => {
    await bed.fixture.seed('alpha', { completed: 2, failed: 3, waiting: 1 });
    await bed.fixture.seed('beta', { delayed: 2, prioritized: 1 });
    const idle = await bed.fixture.seed('gamma', { completed: 1 });
    await idle.pause();
    const list = await get(`${bed.app.api}/c/main/queues?totals=true`);
    expect(list.status).toBe(200);
    expect(list.body.queues.map((queue: { name: string }) => queue.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(list.body.queues[0]).toEqual({
      name: 'alpha',
      prefix: 'bullmq',
      isPaused: false,
      jobCounts: {
        waiting: 1,
        active: 0,
        delayed: 0,
        completed: 2,
        failed: 3,
        paused: 0,
        prioritized: 0,
        waitingChildren: 0,
      },
    });
    expect(list.body.totals).toMatchObject({ waiting: 1, delayed: 2, completed: 3, failed: 3, prioritized: 1 });
    const byFailed = await get(`${bed.app.api}/c/main/queues?sort=failed&order=desc`);
    expect(byFailed.body.queues.map((queue: { name: string }) => queue.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(
      (await get(`${bed.app.api}/c/main/queues?state=paused`)).body.queues.map((q: { name: string }) => q.name),
    ).toEqual(['gamma']);
    expect(
      (await get(`${bed.app.api}/c/main/queues?state=failing`)).body.queues.map((q: { name: string }) => q.name),
    ).toEqual(['alpha']);
    expect(
      (await get(`${bed.app.api}/c/main/queues?state=idle`)).body.queues.map((q: { name: string }) => q.name),
    ).toEqual(['gamma']);
    expect(
      (await get(`${bed.app.api}/c/main/queues?search=ET`)).body.queues.map((q: { name: string }) => q.name),
    ).toEqual(['beta']);
  });

  it('answers the detail with meta, and 404 for a queue that is not there', async () => {
    await bed.fixture.seed('detail', { waiting: 2 });
    const detail = await get(bed.queueUrl('detail'));
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      name: 'detail',
      prefix: 'bullmq',
      isPaused: false,
      jobCounts: { waiting: 2 },
      schedulersCount: 0,
    });
    expect(detail.body.meta.version).toMatch(/^bullmq:6/);
    const missing = await get(bed.queueUrl('nowhere'));
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});

describe('pause, resume, clean, purge, obliterate on PostgreSQL', () => {
  it('pauses and resumes; a paused queue counts its waiting jobs as paused, as on Redis', async () => {
    const queue = await bed.fixture.seed('switch', { waiting: 2 });
    expect(await post(bed.queueUrl('switch', '/pause'))).toMatchObject({
      status: 200,
      body: { success: true, isPaused: true },
    });
    expect(await queue.isPaused()).toBe(true);
    expect((await get(bed.queueUrl('switch'))).body.jobCounts).toMatchObject({ waiting: 0, paused: 2 });
    expect((await get(bed.queueUrl('switch', '/jobs?status=paused'))).body.total).toBe(2);
    expect((await get(bed.queueUrl('switch', '/jobs?status=waiting'))).body.total).toBe(0);
    expect(await post(bed.queueUrl('switch', '/resume'))).toMatchObject({ status: 200, body: { isPaused: false } });
    expect(await queue.isPaused()).toBe(false);
    expect((await post(bed.queueUrl('nobody', '/pause'))).status).toBe(404);
  });

  it('cleans one status up to a limit', async () => {
    const queue = await bed.fixture.seed('tidy', { completed: 1, failed: 3 });
    const response = await post(bed.queueUrl('tidy', '/clean'), { status: 'failed', limit: 2 });
    expect(response).toMatchObject({ status: 200, body: { removed: 2 } });
    expect(await queue.getJobCounts('failed', 'completed')).toMatchObject({ failed: 1, completed: 1 });
    await queue.add('young', {});
    expect((await post(bed.queueUrl('tidy', '/clean'), { status: 'paused' })).body.removed).toBe(0);
    expect(
      (await post(bed.queueUrl('tidy', '/clean'), { status: 'waiting', gracePeriod: 3_600_000 })).body.removed,
    ).toBe(0);
    expect((await post(bed.queueUrl('tidy', '/clean'), { status: 'waiting' })).body.removed).toBe(1);
  });

  it("purges with the seed's rules: confirmation, statuses, the queue kept", async () => {
    const queue = await bed.fixture.seed('purged', { completed: 2, failed: 2, waiting: 2, delayed: 1, prioritized: 1 });
    expect(await post(bed.queueUrl('purged', '/purge'), { statuses: ['failed'] })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED' },
    });
    expect(await post(bed.queueUrl('purged', '/purge'), { confirmName: 'Purged', statuses: ['failed'] })).toMatchObject(
      { status: 400, body: { code: 'CONFIRMATION_MISMATCH' } },
    );
    expect(await post(bed.queueUrl('purged', '/purge'), { confirmName: 'purged', statuses: ['stuck'] })).toMatchObject({
      status: 400,
    });
    expect(await queue.getJobCountByTypes('failed')).toBe(2);
    // Not paused: `paused` holds nothing and must not take the waiting jobs.
    const some = await post(bed.queueUrl('purged', '/purge'), {
      confirmName: 'purged',
      statuses: ['failed', 'paused'],
    });
    expect(some.body).toMatchObject({
      success: true,
      queueName: 'purged',
      totalRemoved: 2,
      removedByStatus: { failed: 2, paused: 0 },
    });
    expect(await queue.getJobCounts('waiting', 'failed')).toMatchObject({ waiting: 2, failed: 0 });
    const all = await post(bed.queueUrl('purged', '/purge'), { confirmName: 'purged', statuses: ['all'] });
    expect(all.body).toMatchObject({
      totalRemoved: 6,
      removedByStatus: { waiting: 2, completed: 2, delayed: 1, prioritized: 1 },
    });
    expect((await get(bed.queueUrl('purged'))).status).toBe(200);
    expect((await post(bed.queueUrl('ghost', '/purge'), { confirmName: 'ghost', statuses: ['all'] })).status).toBe(404);
  });

  it('obliterates with confirmation; the queue is gone from the list', async () => {
    await bed.fixture.seed('doomed', { waiting: 1, failed: 1 });
    expect((await post(bed.queueUrl('doomed', '/obliterate'), { confirmName: 'nope' })).status).toBe(400);
    const gone = await post(bed.queueUrl('doomed', '/obliterate'), { confirmName: 'doomed' });
    expect(gone).toMatchObject({
      status: 200,
      body: { success: true, prefix: 'bullmq', removedJobCounts: { waiting: 1, failed: 1 } },
    });
    expect((await get(bed.queueUrl('doomed'))).status).toBe(404);
    expect((await get(`${bed.app.api}/c/main/queues`)).body.queues.map((q: { name: string }) => q.name)).not.toContain(
      'doomed',
    );
  });
});

describe('can-delete and delete on PostgreSQL', () => {
  it('says whether a queue may be deleted, refuses 409 while it holds unfinished jobs, deletes once only completed remain', async () => {
    const queue = await bed.fixture.seed('retired', { completed: 2, waiting: 1 });
    expect((await get(bed.queueUrl('retired', '/can-delete'))).body).toMatchObject({
      canDelete: false,
      jobCounts: { waiting: 1, completed: 2 },
    });
    expect(await bed.call('DELETE', bed.queueUrl('retired'), { confirmName: 'retired' })).toMatchObject({
      status: 409,
      body: { code: 'QUEUE_NOT_EMPTY' },
    });
    await queue.drain();
    expect((await get(bed.queueUrl('retired', '/can-delete'))).body).toMatchObject({ canDelete: true });
    expect(await bed.call('DELETE', bed.queueUrl('retired'), { confirmName: 'retired' })).toMatchObject({
      status: 200,
      body: { success: true, deleted: 'retired' },
    });
    expect((await get(bed.queueUrl('retired'))).status).toBe(404);
  });
});

describe('what PostgreSQL connections refuse', () => {
  it('answers store-key routes 400 NOT_A_KEY_VALUE_STORE', async () => {
    for (const [method, path] of [
      ['GET', '/store-keys/search'],
      ['GET', '/store-keys/value/x'],
      ['DELETE', '/store-keys/x'],
    ] as const) {
      const response = await bed.call(method, `${bed.app.api}/c/main${path}`, method === 'DELETE' ? {} : undefined);
      expect(response.status, path).toBe(400);
      expect(response.body.code, path).toBe('NOT_A_KEY_VALUE_STORE');
    }
  });

  it("refuses the seam's Redis client with 400 NOT_SUPPORTED_BY_BACKEND: a route not ported says so, never a 500", async () => {
    const [connection] = bed.app.services.connections.environmentConnections!();
    const store = bed.app.services.stores.handle(connection!);
    expect(() => store.client).toThrow(
      expect.objectContaining({
        code: 'NOT_SUPPORTED_BY_BACKEND',
        details: expect.objectContaining({ connectionId: 'main', kind: 'postgres' }),
      }),
    );
  });
});
