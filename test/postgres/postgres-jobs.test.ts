import { FlowProducer, createPostgresBackend } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';

/** The job routes on a PostgreSQL connection, jobs made by real BullMQ Workers on createPostgresBackend. */
const bed = postgresBed();
const get = (url: string) => bed.call('GET', url);
const post = (url: string, body: unknown = {}) => bed.call('POST', url, body);
const ids = (body: { jobs: Array<{ id: string }> }) => body.jobs.map((job) => job.id);

describe('job reads on PostgreSQL', () => {
  it('pages every status, newest first or oldest first, with totals', async () => {
    await bed.fixture.seed('pages', { completed: 3, failed: 2, waiting: 3, delayed: 2, prioritized: 2 });
    const expected = {
      completed: 3,
      failed: 2,
      waiting: 3,
      delayed: 2,
      prioritized: 2,
      active: 0,
      waitingChildren: 0,
      paused: 0,
    };
    for (const [status, total] of Object.entries(expected)) {
      const page = await get(bed.queueUrl('pages', `/jobs?status=${status}`));
      expect(page.status, status).toBe(200);
      expect(page.body.total, status).toBe(total);
      expect(
        page.body.jobs.every((job: { state: string }) => job.state === status),
        status,
      ).toBe(true);
    }
    const newest = await get(bed.queueUrl('pages', '/jobs?status=waiting&pageSize=2'));
    expect(newest.body).toMatchObject({ total: 3, totalPages: 2, hasMore: true });
    expect(newest.body.jobs.map((job: { name: string }) => job.name)).toEqual(['waiting-2', 'waiting-1']);
    const oldest = await get(bed.queueUrl('pages', '/jobs?status=waiting&order=oldest&pageSize=2&page=2'));
    expect(oldest.body.jobs.map((job: { name: string }) => job.name)).toEqual(['waiting-2']);
    expect(ids((await get(bed.queueUrl('pages', '/jobs?status=failed'))).body)).toHaveLength(2);
    expect((await get(bed.queueUrl('ghost', '/jobs?status=failed'))).status).toBe(404);
  });

  it('answers a failed job in full: stack trace, logs, attempts; 404 for a job that is not there', async () => {
    const queue = await bed.fixture.seed('detail', { failed: 1 });
    const [failed] = await queue.getFailed();
    const detail = await get(bed.queueUrl('detail', `/jobs/${failed!.id}`));
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: failed!.id,
      name: 'work',
      state: 'failed',
      failedReason: 'seeded failure',
      attemptsMade: 1,
      logsCount: 1,
      data: { fail: true },
    });
    expect(detail.body.stacktrace[0]).toMatch(/^Error: seeded failure/);
    const logs = await get(bed.queueUrl('detail', `/jobs/${failed!.id}/logs`));
    expect(logs.body).toEqual({ logs: [`ran ${failed!.id}`], count: 1 });
    const traces = await get(bed.queueUrl('detail', `/jobs/${failed!.id}/stacktraces`));
    expect(traces.body).toMatchObject({ failedReason: 'seeded failure', attemptsMade: 1 });
    expect(traces.body.stacktraces[0]).toMatch(/seeded failure/);
    for (const path of ['/jobs/404', '/jobs/404/logs', '/jobs/404/stacktraces'])
      expect((await get(bed.queueUrl('detail', path))).status, path).toBe(404);
    expect((await get(bed.queueUrl('ghost', '/jobs/1'))).status).toBe(404);
  });

  it('shows a flow: the parent waiting for its children, each child naming its parent', async () => {
    const flows = new FlowProducer(bed.fixture.bullmq, createPostgresBackend);
    try {
      const tree = await flows.add({
        name: 'parent',
        queueName: 'flow',
        children: [
          { name: 'child', queueName: 'flow', data: { n: 1 } },
          { name: 'child', queueName: 'flow', data: { n: 2 } },
        ],
      });
      const parent = await get(bed.queueUrl('flow', `/jobs/${tree.job.id}`));
      expect(parent.body).toMatchObject({
        state: 'waitingChildren',
        children: { counts: { unprocessed: 2, processed: 0 }, truncated: false },
      });
      expect(parent.body.children.items.map((item: { name: string }) => item.name)).toEqual(['child', 'child']);
      const child = await get(bed.queueUrl('flow', `/jobs/${tree.children![0]!.job.id}`));
      expect(child.body.parent).toMatchObject({
        queueName: 'flow',
        id: tree.job.id,
        name: 'parent',
        state: 'waitingChildren',
      });
    } finally {
      await flows.close();
    }
  });
});

describe('job actions on PostgreSQL', () => {
  it('adds a job (201) to an existing queue and creates a queue by adding to it', async () => {
    const added = await post(bed.queueUrl('fresh', '/jobs'), { name: 'hello', data: { a: 1 } });
    expect(added).toMatchObject({ status: 201, body: { name: 'hello', state: 'waiting', data: { a: 1 } } });
    expect((await get(bed.queueUrl('fresh'))).body.jobCounts.waiting).toBe(1);
    const delayed = await post(bed.queueUrl('fresh', '/jobs'), { name: 'later', data: {}, delay: 60_000, priority: 3 });
    expect(delayed.body).toMatchObject({ state: 'delayed', delay: 60_000, priority: 3 });
    expect((await post(bed.queueUrl('fresh', '/jobs'), { name: 'urgent', data: {}, priority: 1 })).body.state).toBe(
      'prioritized',
    );
  });

  it('retries failed jobs by id and a whole status', async () => {
    const queue = await bed.fixture.seed('retry', { failed: 3 });
    const [first, ...rest] = (await queue.getFailed()).map((job) => job.id!);
    expect((await post(bed.queueUrl('retry', '/jobs/retry'), { jobIds: [first] })).body).toMatchObject({
      succeeded: 1,
      failed: 0,
    });
    expect(await queue.getJobCounts('failed', 'waiting')).toMatchObject({ failed: 2, waiting: 1 });
    expect((await post(bed.queueUrl('retry', '/jobs/retry'), { status: 'failed', all: true })).body).toMatchObject({
      succeeded: 2,
      done: true,
    });
    expect(await queue.getJobCounts('failed', 'waiting')).toMatchObject({ failed: 0, waiting: 3 });
    expect(rest).toHaveLength(2);
  });

  it('removes jobs by id and a whole status, promotes delayed ones', async () => {
    const queue = await bed.fixture.seed('act', { completed: 2, waiting: 2, delayed: 2 });
    const [waiting] = await queue.getWaiting();
    expect((await post(bed.queueUrl('act', '/jobs/remove'), { jobIds: [waiting!.id, 'nope'] })).body).toMatchObject({
      succeeded: 1,
      failed: 1,
    });
    expect((await post(bed.queueUrl('act', '/jobs/remove'), { status: 'completed', all: true })).body).toMatchObject({
      succeeded: 2,
    });
    const [delayed] = await queue.getDelayed();
    expect((await post(bed.queueUrl('act', '/jobs/invoke'), { jobIds: [delayed!.id] })).body).toMatchObject({
      succeeded: 1,
    });
    expect(await queue.getJobCounts('waiting', 'completed', 'delayed')).toMatchObject({
      waiting: 2,
      completed: 0,
      delayed: 1,
    });
  });

  it('edits data, duplicates a job and clears its logs', async () => {
    const queue = await bed.fixture.seed('fix', { completed: 1, waiting: 1 });
    const [waiting] = await queue.getWaiting();
    expect(
      (await bed.call('PATCH', bed.queueUrl('fix', `/jobs/${waiting!.id}`), { data: { fixed: true } })).body.data,
    ).toEqual({ fixed: true });
    const [done] = await queue.getCompleted();
    const copy = await post(bed.queueUrl('fix', `/jobs/${done!.id}/duplicate`));
    expect(copy).toMatchObject({ status: 201, body: { name: 'work', state: 'waiting' } });
    expect((await bed.call('DELETE', bed.queueUrl('fix', `/jobs/${done!.id}/logs`), {})).body).toMatchObject({
      success: true,
      count: 0,
    });
  });
});
