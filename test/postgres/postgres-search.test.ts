import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/jobs.js';
import { postgresBed } from '../helpers/postgres-bed.js';
import { settlePostgresJobs } from '../helpers/postgres-queues.js';

/** Job search and the query form of bulk retry/remove on a PostgreSQL connection, jobs settled by real BullMQ Workers. */
const bed = postgresBed();
const get = (name: string, query: string) => bed.call('GET', bed.queueUrl(name, `/search?${query}`));
const post = (name: string, action: string, body: unknown) =>
  bed.call('POST', bed.queueUrl(name, `/jobs/${action}`), body);
const sorted = (ids: string[]) => [...ids].sort();
const idsOf = (body: { jobs: Array<{ id: string }> }) => body.jobs.map((job) => job.id);

/** Twelve finished jobs (the even ones fail), customer c-42 on every third, then a waiting, a delayed and a prioritized c-42 job. */
async function orders(name: string) {
  const queue = bed.fixture.queue(name);
  const data = (i: number) => ({ customer: i % 3 === 0 ? 'c-42' : 'c-7', total: i * 10, fail: i % 2 === 0 });
  const settled = await settlePostgresJobs(
    bed.fixture.bullmq,
    queue,
    Array.from({ length: 12 }, (_, i) => ({ name: 'order', data: data(i) })),
  );
  const waiting = await queue.add('checkout', { customer: 'c-42' });
  const delayed = await queue.add('checkout', { customer: 'c-42' }, { delay: 3_600_000 });
  const urgent = await queue.add('rush', { customer: 'c-42' }, { priority: 5 });
  const pick = (keep: (i: number) => boolean) => settled.filter((_, i) => keep(i));
  return { queue, settled, waiting: waiting.id!, delayed: delayed.id!, urgent: urgent.id!, pick };
}

describe('job search on PostgreSQL', () => {
  it('matches text in id, name, data and failure reason, and where terms, in every status', async () => {
    const { settled, waiting, delayed, urgent, pick } = await orders('orders');
    const c42 = [...pick((i) => i % 3 === 0), waiting, delayed, urgent];
    expect(sorted(idsOf((await get('orders', 'q=C-42&in=data&limit=100')).body))).toEqual(sorted(c42));
    const failed = await get('orders', 'q=seeded&in=failedReason');
    expect(sorted(idsOf(failed.body))).toEqual(sorted(pick((i) => i % 2 === 0)));
    expect(failed.body.jobs.every((job: { state: string }) => job.state === 'failed')).toBe(true);
    expect(idsOf((await get('orders', 'q=rush&in=name')).body)).toEqual([urgent]);
    const exact = await get('orders', `q=${settled[5]}&in=id`);
    expect(idsOf(exact.body)[0]).toBe(settled[5]);
    const where = async (terms: string, status = '') =>
      sorted(idsOf((await get('orders', `where=${encodeURIComponent(terms)}&limit=100${status}`)).body));
    expect(await where('data.customer:c-42', '&status=failed')).toEqual(sorted(pick((i) => i % 6 === 0)));
    expect(await where('data.total>=80 failedReason~SEEDED')).toEqual(sorted(pick((i) => i >= 8 && i % 2 === 0)));
    expect(await where('attemptsMade>=1')).toEqual(sorted(settled));
    expect(await where('opts.priority>3')).toEqual([urgent]);
    expect(await where('name:checkout', '&status=delayed,waiting')).toEqual(sorted([waiting, delayed]));
    expect((await get('ghost', 'q=x')).status).toBe(404);
    expect((await get('orders', 'in=data')).status).toBe(400);
  });

  it('continues a search by cursor, each job once, and a paused queue’s waiting jobs are found as paused', async () => {
    const { queue, waiting, pick } = await orders('paged');
    const found: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(
        'paged',
        `q=c-42&in=data&limit=2&status=failed,completed${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      found.push(...idsOf(page.body));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(sorted(found)).toEqual(sorted(pick((i) => i % 3 === 0)));
    // The cursor's anchor gone (removed meanwhile): the search goes on from its offset.
    const first = await get('paged', 'q=c-42&in=data&limit=1&status=failed,completed');
    const anchor = JSON.parse(Buffer.from(first.body.nextCursor, 'base64url').toString()).a as string;
    await queue.remove(anchor);
    const rest = await get('paged', `q=c-42&in=data&limit=100&status=failed,completed&cursor=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ done: true });
    expect(idsOf(rest.body)).not.toContain(anchor);
    expect(idsOf(rest.body).length).toBeGreaterThanOrEqual(2);
    await queue.pause();
    const paused = await get('paged', 'q=checkout&in=name&status=waiting,paused');
    expect(paused.body.jobs.map((job: { id: string; state: string }) => [job.id, job.state])).toContainEqual([
      waiting,
      'paused',
    ]);
    expect(paused.body.jobs).toHaveLength(1);
    await queue.resume();
  });
});

describe('bulk retry and remove by query on PostgreSQL', () => {
  it('retries what the dry run counted, by cursor, then removes by where', async () => {
    const { queue, pick } = await orders('invoices');
    const query = { q: 'c-42', in: ['data'], status: ['failed'] };
    const dry = await post('invoices', 'retry', { query, dryRun: true });
    expect(dry.body).toMatchObject({ matched: 2, scanned: 6, done: true, succeeded: 0 });
    expect(sorted(dry.body.sampleIds)).toEqual(sorted(pick((i) => i % 6 === 0)));
    let cursor: string | undefined;
    let retried = 0;
    do {
      const round = await post('invoices', 'retry', { query, limit: 1, ...(cursor ? { cursor } : {}) });
      expect(round.status).toBe(200);
      retried += round.body.succeeded;
      cursor = round.body.cursor ?? undefined;
    } while (cursor);
    expect(retried).toBe(2);
    expect(await queue.getJobCounts('failed', 'waiting')).toMatchObject({ failed: 4, waiting: 3 });
    const removed = await post('invoices', 'remove', { query: { where: 'data.customer:c-7', status: ['failed'] } });
    expect(removed.body).toMatchObject({ succeeded: 4, failed: 0, done: true });
    expect(await queue.getJobCounts('failed', 'completed')).toMatchObject({ failed: 0, completed: 6 });
  });

  it('runs the query form as a background task', async () => {
    const { queue } = await orders('tasks');
    const finished = (taskId: string) =>
      waitFor(async () => {
        await bed.app.services.tasks.runOnce();
        const task = (await bed.call('GET', `${bed.app.api}/c/main/tasks/${taskId}`)).body;
        return ['done', 'failed', 'cancelled'].includes(task.state) ? task : undefined;
      }, 15_000);
    const retry = await post('tasks', 'retry', { query: { where: 'data.customer:c-42' }, async: true });
    expect(retry.status).toBe(202);
    expect(await finished(retry.body.taskId)).toMatchObject({ state: 'done', result: { retried: 4, refused: 0 } });
    const remove = await post('tasks', 'remove', {
      query: { q: 'c-7', in: ['data'], status: ['failed'] },
      async: true,
    });
    expect(await finished(remove.body.taskId)).toMatchObject({ state: 'done', result: { removed: 4 } });
    expect(await queue.getJobCounts('failed', 'completed')).toMatchObject({ failed: 0, completed: 4 });
  });
});
