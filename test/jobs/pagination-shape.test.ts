import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

/** The one pagination shape (README, request conventions): `limit` and `cursor` in, `nextCursor` out; `page`/`pageSize` still taken. */
describe('lists page by limit and cursor', () => {
  const bed = queueTestBed();

  /** Follows nextCursor from the first page to the last: every page's ids, in order. */
  async function follow(first: string): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let target: string | null = first;
    let pages = 0;
    while (target && pages < 20) {
      const answer = await request(target);
      expect(answer.status).toBe(200);
      pages += 1;
      ids.push(
        ...(answer.body.jobs ?? answer.body.queues ?? answer.body.keys).map(
          (item: { id?: string; name?: string; key?: string }) => item.id ?? item.name ?? item.key,
        ),
      );
      target = answer.body.nextCursor ? `${first}&cursor=${encodeURIComponent(answer.body.nextCursor)}` : null;
    }
    return { ids, pages };
  }

  it('walks a job status by nextCursor, as the older pages do', async () => {
    await bed.seeded('paged-jobs', { waiting: 7 });
    const base = `${queueUrl(bed.app, bed.fixture, 'paged-jobs')}/jobs?status=waiting`;
    const byCursor = await follow(`${base}&limit=3`);
    expect(byCursor).toMatchObject({ pages: 3 });
    expect(new Set(byCursor.ids).size).toBe(7);
    const byPage = [1, 2, 3].map((page) => request(`${base}&pageSize=3&page=${page}`));
    const pageIds = (await Promise.all(byPage)).flatMap((answer) =>
      answer.body.jobs.map((job: { id: string }) => job.id),
    );
    expect(byCursor.ids).toEqual(pageIds);
    const last = await request(`${base}&pageSize=3&page=3`);
    expect(last.body).toMatchObject({ nextCursor: null, hasMore: false, total: 7 });
  });

  it('walks the queue list the same way, with its total', async () => {
    for (const name of ['paged-q-a', 'paged-q-b', 'paged-q-c']) await bed.seeded(name, { waiting: 1 });
    const first = await request(`${bed.app.api}/c/main/queues?search=paged-q&limit=2`);
    expect(first.body).toMatchObject({ total: 3, nextCursor: expect.any(String) });
    const rest = await request(
      `${bed.app.api}/c/main/queues?search=paged-q&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(rest.body.nextCursor).toBeNull();
    expect([...first.body.queues, ...rest.body.queues].map((queue: { name: string }) => queue.name).sort()).toEqual([
      'paged-q-a',
      'paged-q-b',
      'paged-q-c',
    ]);
  });

  it('answers nextCursor on searches and key scans (their older cursor and done kept)', async () => {
    await bed.seeded('paged-search', { waiting: 3 });
    const search = await request(`${queueUrl(bed.app, bed.fixture, 'paged-search')}/search?q=job&limit=1`);
    expect(search.status).toBe(200);
    expect(search.body.nextCursor).toBe(search.body.cursor);
    // The shared Redis holds other tests' keys too: a scan may take several pages to finish.
    const scan = `${bed.app.api}/c/main/store-keys/search?pattern=${encodeURIComponent(`${bed.fixture.prefix}:paged-search:*`)}&limit=1000`;
    let keys = await request(scan);
    for (let pages = 1; keys.body.nextCursor !== null && pages < 500; pages++) {
      expect(keys.body).toMatchObject({ nextCursor: keys.body.cursor, done: false });
      keys = await request(`${scan}&cursor=${keys.body.nextCursor}`);
    }
    expect(keys.body).toMatchObject({ nextCursor: null, done: true, cursor: '0' });
  });

  it('refuses a cursor no list gave with 400', async () => {
    await bed.seeded('paged-bad', { waiting: 1 });
    const answer = await request(`${queueUrl(bed.app, bed.fixture, 'paged-bad')}/jobs?status=waiting&cursor=nonsense`);
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });
});
