import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextChunkSize, searchChunkSizes } from '../../routers/jobs/search/scan-matches.js';
import { searchJobs } from '../../routers/jobs/search/search-jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { resolveQueue } from '../../server/bullmq/resolve-queue.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { storeFixture } from '../helpers/stores.js';

const fixture = storeFixture();
const queueName = 'search';
const jobCount = 3000;
/** Positions (oldest = 0) of the jobs whose data holds the needle, deep in a nested object. */
const needlePositions = [40, 1500, 2900];
let app: TestApp;
let queue: Queue;
let base: string;
let store: StoreHandle;
const needleIds: string[] = [];

beforeAll(async () => {
  app = await bootApp({ env: fixture.env });
  base = queueUrl(app, fixture, queueName);
  store = app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!);
  queue = new Queue(queueName, fixture.bullmq);
  const jobs = Array.from({ length: jobCount }, (_, n) => ({
    name: n % 2 ? 'email' : 'sms',
    data: { order: n, customer: { address: { city: needlePositions.includes(n) ? 'Ouagadougou' : 'Lyon' } } },
  }));
  for (let start = 0; start < jobCount; start += 1000) {
    const added = await queue.addBulk(jobs.slice(start, start + 1000));
    for (const job of added) if (needlePositions.includes(job.data.order)) needleIds.push(job.id!);
  }
  await queue.add('failing', { order: -1 }, { delay: 60_000 });
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await fixture.cleanup();
});

const search = (query: string) => request(`${base}/search?${query}`);

describe('GET /search', () => {
  it('finds a value deep in data across several chunks, then continues by cursor to the end', async () => {
    const found: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    let last: any;
    do {
      const { status, body } = await search(
        `q=ouagadougou&in=data&status=waiting&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(status).toBe(200);
      found.push(...body.jobs.map((job: { id: string }) => job.id));
      cursor = body.cursor;
      last = body;
      requests++;
    } while (cursor && requests < 20);
    // Newest first: the last needle added is found first.
    expect(found).toEqual([...needleIds].reverse());
    expect(last).toMatchObject({ done: true, cursor: null, scannedTotal: jobCount });
    expect(requests).toBe(4);
  });

  it('reports matches with their state and a previewed summary', async () => {
    const { body } = await search(
      'q=OUAGADOUGOU&in=data&status=waiting&limit=100&maxDataBytes=20&fields=name,state,data',
    );
    expect(body.jobs).toHaveLength(3);
    expect(body.jobs[0]).toMatchObject({ state: 'waiting', truncated: true, data: '{"order":2900,"custo' });
    expect(body.scanned).toBe(jobCount);
    expect(body.scanned).toBeGreaterThan(searchChunkSizes.initial);
  });

  it('searches only the fields named in `in`', async () => {
    const byName = await search('q=ouagadougou&in=name,failedReason&status=waiting');
    expect(byName.body).toMatchObject({ jobs: [], done: true });
    const names = await search('q=sms&in=name&status=waiting&limit=5');
    expect(names.body.jobs.map((job: { name: string }) => job.name)).toEqual(Array(5).fill('sms'));
  });

  it('looks an exact id up directly, whatever the statuses scanned first', async () => {
    const [delayed] = await queue.getDelayed(0, 0);
    const { body } = await search(`q=${delayed!.id}&limit=1`);
    expect(body.jobs).toEqual([expect.objectContaining({ id: delayed!.id, state: 'delayed', name: 'failing' })]);
  });

  it('reads a regular-expression-shaped query literally, and answers as fast as any other (no ReDoS)', async () => {
    for (const q of ['(l+)+$', '(.*a){30}b', `${'a?'.repeat(40)}${'a'.repeat(40)}`]) {
      const started = performance.now();
      const { status, body } = await search(`q=${encodeURIComponent(q)}&in=data,name&status=waiting&limit=5`);
      expect(status).toBe(200);
      expect(body.jobs).toEqual([]);
      // The search is a substring test within a time budget; generous for a loaded machine.
      expect(performance.now() - started).toBeLessThan(5000);
    }
    const names = await request(
      `${base.replace(/\/queues\/[^/]+$/, '/queues')}?search=${encodeURIComponent('(s+)+$')}`,
    );
    expect(names.status).toBe(200);
    expect(names.body.queues).toEqual([]);
  });

  it('rejects a cursor that is forged or belongs to another search', async () => {
    const first = await search('q=lyon&in=data&status=waiting&limit=1');
    const other = await search(`q=paris&in=data&status=waiting&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect([other.status, other.body.message]).toEqual([400, expect.stringContaining('cursor')]);
    const forged = await search('q=lyon&cursor=bm90LWEtY3Vyc29y');
    expect([forged.status, forged.body.message]).toEqual([400, expect.stringContaining('cursor')]);
  });

  it('rejects bad options naming the field', async () => {
    for (const [query, field] of [
      ['in=data', 'q'],
      ['q=x&in=body', 'in'],
      ['q=x&status=gone', 'status'],
      ['q=x&limit=101', 'limit'],
    ]) {
      const { status, body } = await search(query!);
      expect(status, query).toBe(400);
      expect(body.message, query).toContain(field);
    }
  });
});

describe('searchJobs time budget', () => {
  it('answers after one chunk when the budget is spent, and the cursor chain still covers every job once', async () => {
    let cursor: string | undefined;
    const found: string[] = [];
    let calls = 0;
    for (;;) {
      const page = await searchJobs({
        store,
        queue: await resolveQueue(store, { queueName }),
        q: 'ouagadougou',
        in: ['data'],
        status: ['waiting'],
        limit: 100,
        cursor,
        maxDataBytes: 100,
        budgetMs: 0,
        chunkSize: 500,
      });
      calls++;
      found.push(...page.jobs.map((job) => job.id));
      if (!page.done) expect(page.scanned).toBe(500);
      if (page.done || calls > 10) break;
      cursor = page.cursor!;
    }
    expect(calls).toBe(jobCount / 500 + 1);
    expect(found).toEqual([...needleIds].reverse());
  });
});

describe('nextChunkSize', () => {
  it('grows chunks of light jobs up to the maximum and shrinks heavy ones toward the byte target', () => {
    expect(nextChunkSize(50, 10_000)).toBe(100);
    expect(nextChunkSize(searchChunkSizes.max, 10_000)).toBe(searchChunkSizes.max);
    expect(nextChunkSize(100, 100 * 1024 * 1024)).toBe(8);
    expect(nextChunkSize(5, 5 * 1024 * 1024 * 1024)).toBe(searchChunkSizes.min);
  });
});
