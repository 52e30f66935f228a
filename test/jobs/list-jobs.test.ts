import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { queueUrl, waitFor } from '../helpers/jobs.js';
import { storeFixture } from '../helpers/stores.js';
import { commandsDuring } from '../helpers/command-count.js';

const fixture = storeFixture();
const queueName = 'list jobs/q';
let app: TestApp;
let queue: Queue;
let base: string;

async function pageThrough(status: string, order: string, pageSize: number) {
  const ids: string[] = [];
  const pages: any[] = [];
  for (let page = 1; page <= 20; page++) {
    const { status: code, body } = await request(
      `${base}/jobs?status=${status}&order=${order}&pageSize=${pageSize}&page=${page}`,
    );
    expect(code).toBe(200);
    pages.push(body);
    ids.push(...body.jobs.map((job: { id: string }) => job.id));
    if (!body.hasMore) break;
  }
  return { ids, pages };
}

beforeAll(async () => {
  app = await bootApp({ env: fixture.env });
  base = queueUrl(app, fixture, queueName);
  queue = new Queue(queueName, fixture.bullmq);
  await queue.addBulk([
    ...Array.from({ length: 7 }, (_, n) => ({ name: `ok-${n}`, data: { n } })),
    ...Array.from({ length: 5 }, (_, n) => ({ name: `bad-${n}`, data: { fail: true, n } })),
  ]);
  const worker = new Worker(
    queueName,
    async (job) => {
      if (job.data.fail) throw new Error(`failure ${job.data.n}`);
      return { doubled: job.data.n * 2 };
    },
    { ...fixture.bullmq, concurrency: 1 },
  );
  await waitFor(
    async () => {
      const counts = await queue.getJobCounts('completed', 'failed');
      return counts.completed === 7 && counts.failed === 5;
    },
    15_000,
    'the worker to finish',
  );
  await worker.close();
  for (let n = 0; n < 6; n++) await queue.add(`wait-${n}`, { n });
  for (let n = 0; n < 4; n++) await queue.add(`later-${n}`, { n }, { delay: 60_000 * (n + 1) });
  for (let n = 0; n < 3; n++) await queue.add(`prio-${n}`, { n }, { priority: 10 + n });
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await fixture.cleanup();
});

describe('GET /jobs', () => {
  it.each([
    ['completed', 7],
    ['failed', 5],
    ['waiting', 6],
    ['delayed', 4],
    ['prioritized', 3],
    ['active', 0],
  ])('pages %s exactly: every job once, totals right', async (status, expected) => {
    const newest = await pageThrough(status, 'newest', 2);
    const oldest = await pageThrough(status, 'oldest', 2);
    const truth = (await queue.getJobs(status === 'waiting' ? 'wait' : (status as 'completed'), 0, -1)).map(
      (job) => job.id,
    );
    expect(newest.ids).toHaveLength(expected);
    expect(new Set(newest.ids)).toEqual(new Set(truth));
    expect(oldest.ids).toEqual([...newest.ids].reverse());
    for (const page of newest.pages) {
      expect([page.total, page.pageSize, page.totalPages]).toEqual([expected, 2, Math.ceil(expected / 2)]);
      for (const job of page.jobs) expect(job.state).toBe(status);
    }
    expect(newest.pages.at(-1).hasMore).toBe(false);
  });

  it('orders waiting and delayed jobs newest first, oldest with order=oldest', async () => {
    const waiting = await request(`${base}/jobs?status=waiting&pageSize=3`);
    expect(waiting.body.jobs.map((job: { name: string }) => job.name)).toEqual(['wait-5', 'wait-4', 'wait-3']);
    const delayed = await request(`${base}/jobs?status=delayed&order=oldest&pageSize=2&page=2`);
    expect(delayed.body.jobs.map((job: { name: string }) => job.name)).toEqual(['later-2', 'later-3']);
  });

  it('summarises completed and failed jobs with what the worker left', async () => {
    const { body: completed } = await request(`${base}/jobs?status=completed&pageSize=100`);
    const ok = completed.jobs.find((job: { name: string }) => job.name === 'ok-3');
    expect(ok).toMatchObject({
      returnvalue: { doubled: 6 },
      data: { n: 3 },
      attemptsMade: 1,
      truncated: false,
      truncatedFields: [],
    });
    expect(ok.finishedOn).toBeGreaterThanOrEqual(ok.processedOn);
    const { body: failed } = await request(`${base}/jobs?status=failed&pageSize=100`);
    expect(failed.jobs.map((job: { failedReason: string }) => job.failedReason).sort()).toEqual(
      [0, 1, 2, 3, 4].map((n) => `failure ${n}`),
    );
  });

  it('returns only the fields asked for', async () => {
    const { status, body } = await request(`${base}/jobs?status=completed&pageSize=1&fields=name,finishedOn`);
    expect(status).toBe(200);
    expect(Object.keys(body.jobs[0]).sort()).toEqual(['finishedOn', 'id', 'name', 'truncated', 'truncatedFields']);
  });

  it('rejects bad options with 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['status=completed&pageSize=101', 'pageSize'],
      ['status=sleeping', 'status'],
      ['pageSize=10', 'status'],
      ['status=failed&order=sideways', 'order'],
      ['status=failed&fields=name,secret', 'fields'],
      ['status=failed&maxDataBytes=0', 'maxDataBytes'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await request(`${base}/jobs?${query}`);
      expect(status, query).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.message, query).toContain(field);
    }
  });

  it('previews a 1 MB payload, and the detail still has all of it', async () => {
    const big = await queue.add('big', { blob: 'é'.repeat(600_000) }, { delay: 3_600_000 });
    const { body } = await request(`${base}/jobs?status=delayed&pageSize=1&maxDataBytes=1000`);
    const [summary] = body.jobs;
    expect(summary.id).toBe(big.id);
    expect(summary).toMatchObject({ truncated: true, truncatedFields: ['data'] });
    // 1000 bytes of `{"blob":"éé…` end inside a two-byte é: the preview stops before it.
    expect(summary.data).toBe(`{"blob":"${'é'.repeat(495)}`);
    expect(Buffer.byteLength(summary.data)).toBe(999);
    const defaultPreview = await request(`${base}/jobs?status=delayed&pageSize=1`);
    expect(Buffer.byteLength(defaultPreview.body.jobs[0].data)).toBeLessThanOrEqual(2048);
    const detail = await request(`${base}/jobs/${big.id}`);
    expect(detail.body.data.blob).toHaveLength(600_000);
    await big.remove();
  });

  it('answers a page past the end with no jobs and the exact total', async () => {
    const { body } = await request(`${base}/jobs?status=completed&page=1000&pageSize=100`);
    expect(body).toMatchObject({ jobs: [], total: 7, hasMore: false });
  });

  it('reads a page in one Redis command, and answers 404 for a queue that does not exist', async () => {
    await request(`${base}/jobs?status=completed&pageSize=5`);
    const client = app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!).client;
    const sent = await commandsDuring(client, () => request(`${base}/jobs?status=completed&pageSize=5`));
    expect(sent).toEqual(['evalsha']);
    const missing = await request(`${queueUrl(app, fixture, 'never-made')}/jobs?status=completed`);
    expect([missing.status, missing.body.message]).toEqual([404, expect.stringContaining('Queue "never-made"')]);
  });
});
