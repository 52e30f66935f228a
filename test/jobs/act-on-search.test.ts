import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { actOnQuery, type QueryAction } from '../../routers/jobs/bulk/act-on-query.js';
import { removeEach } from '../../routers/jobs/bulk/remove-jobs.js';
import { request } from '../helpers/app.js';
import { failJobs, queueTestBed, type QueueTestBed } from '../helpers/queues.js';

/** Fails one job per customer (the first oldest); answers their ids in that order. */
const failFor = (bed: QueueTestBed, queue: Queue, customers: string[]) =>
  failJobs(
    bed.fixture.bullmq,
    queue,
    customers.map((customer, order) => ({ customer, order })),
  );

/** 300 customers: every fifth job and the one after it belong to customer-42 (120 in all), spread through the whole status. */
const customers = Array.from({ length: 300 }, (_, n) => (n % 5 < 2 ? 'customer-42' : `customer-${7 + (n % 3)}`));
const needle = 'customer-42';

describe('bulk actions on search results', () => {
  const bed = queueTestBed();
  const post = (queueName: string, action: string, body: unknown) =>
    request(`${bed.app.api}/c/main/queues/${queueName}/jobs/${action}`, { method: 'POST', body });

  it('retries exactly what the dry run counted, across cursor continuations, while others remove jobs it already examined', async () => {
    const queue = bed.openQueue('invoices');
    const ids = await failFor(bed, queue, customers);
    const matching = ids.filter((_, n) => customers[n] === needle);
    const query = { q: needle, in: ['data'], status: ['failed'] };

    const dry = await post('invoices', 'retry', { query, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      matched: 120,
      matchedTotal: 120,
      scanned: 300,
      done: true,
      cursor: null,
      succeeded: 0,
      failed: 0,
    });
    expect(dry.body.sampleIds).toHaveLength(20);
    for (const id of dry.body.sampleIds) expect(matching).toContain(id);
    expect(await queue.getJobCountByTypes('failed')).toBe(300);

    let cursor: string | undefined;
    let retried = 0;
    const answers: any[] = [];
    do {
      const { status, body } = await post('invoices', 'retry', { query, limit: 25, ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      expect(body.matched).toBeLessThanOrEqual(25);
      answers.push(body);
      retried += body.succeeded;
      cursor = body.cursor ?? undefined;
      if (answers.length === 2) {
        // Someone else removes ten jobs the scan examined and left (the newest non-matching
        // ones): positions shift, and a cursor holding only an offset would now skip ten jobs.
        const examinedStaying = (await queue.getFailed(0, 9)).map((job) => job.id!);
        expect(examinedStaying.some((id) => matching.includes(id))).toBe(false);
        await Promise.all(examinedStaying.map((id) => queue.remove(id)));
      }
    } while (cursor && answers.length < 20);

    expect(answers.length).toBeGreaterThanOrEqual(5);
    expect(answers.at(-1)).toMatchObject({ done: true, cursor: null, matchedTotal: 120 });
    expect(retried).toBe(120);
    expect(answers.reduce((sum, body) => sum + body.failed, 0)).toBe(0);
    const waiting = (await queue.getWaiting(0, -1)).map((job) => job.id!);
    expect(waiting.sort()).toEqual([...matching].sort());
    const stillFailed = await queue.getFailed(0, -1);
    expect(stillFailed).toHaveLength(300 - 120 - 10);
    expect(stillFailed.some((job) => job.data.customer === needle)).toBe(false);
  });

  it('removes matches of every status the action takes by default, and the chain scans each job once while new failures arrive', async () => {
    const queue = bed.openQueue('refunds');
    const ids = await failFor(bed, queue, customers);
    const matching = new Set(ids.filter((_, n) => customers[n] === needle));
    const waitingMatch = await queue.add('refund', { customer: needle });
    const delayedMatch = await queue.add('refund', { customer: needle }, { delay: 3_600_000 });
    const query = { q: needle };

    const dry = await post('refunds', 'remove', { query, dryRun: true });
    expect(dry.body).toMatchObject({ matched: 122, done: true });

    let cursor: string | undefined;
    let removed = 0;
    let calls = 0;
    let last: any;
    let lateIds: string[] = [];
    do {
      const { body } = await post('refunds', 'remove', { query, limit: 40, ...(cursor ? { cursor } : {}) });
      removed += body.succeeded;
      cursor = body.cursor ?? undefined;
      last = body;
      // New matching failures land at the head of the failed set, before where the scan stands.
      if (++calls === 2) lateIds = await failFor(bed, queue, [needle, needle, needle, needle, needle]);
    } while (cursor && calls < 20);

    expect(last).toMatchObject({ done: true, matchedTotal: 122 });
    expect(removed).toBe(122);
    // Each of the 302 jobs there at the start examined once: none skipped, none repeated.
    expect(last.scannedTotal).toBe(302);
    expect(await queue.getJob(waitingMatch.id!)).toBeUndefined();
    expect(await queue.getJob(delayedMatch.id!)).toBeUndefined();
    const left = (await queue.getFailed(0, -1)).map((job) => job.id!);
    expect(left.filter((id) => matching.has(id))).toEqual([]);
    expect(left.sort()).toEqual([...ids.filter((id) => !matching.has(id)), ...lateIds].sort());
  });

  it('continues chunk by chunk when the time budget ends every request, acting on each match once', async () => {
    const queue = bed.openQueue('budget');
    const ids = await failFor(bed, queue, customers.slice(0, 100));
    const matching = ids.filter((_, n) => customers[n] === needle);
    const removed: string[] = [];
    const act: QueryAction = async (jobIds) => {
      removed.push(...jobIds);
      return removeEach(queue)(jobIds);
    };
    let cursor: string | undefined;
    const scannedPerCall: number[] = [];
    for (let calls = 0; calls < 10; calls++) {
      const outcome = await actOnQuery({
        store: bed.app.services.stores.handle((await bed.app.services.connections.find('main'))!),
        queue,
        query: { q: needle },
        statuses: ['failed'],
        scope: 'remove',
        act,
        cursor,
        budgetMs: 0,
        chunkSize: 30,
      });
      scannedPerCall.push(outcome.scanned);
      if (outcome.done) break;
      cursor = outcome.cursor!;
    }
    expect(scannedPerCall).toEqual([30, 30, 30, 10]);
    expect(removed.sort()).toEqual([...matching].sort());
    expect(await queue.getJobCountByTypes('failed')).toBe(60);
  });

  it('defaults the statuses of a retry to failed and completed, never acting on waiting jobs', async () => {
    const queue = bed.openQueue('mixed');
    await failFor(bed, queue, [needle, 'customer-7']);
    await queue.add('invoice', { customer: needle });
    const { body } = await post('mixed', 'retry', { query: { q: needle }, dryRun: true });
    expect(body).toMatchObject({ matched: 1, scanned: 2, done: true });
  });

  it('refuses bodies that mix or misuse the selections, naming the field', async () => {
    await failFor(bed, bed.openQueue('orders'), ['customer-1']);
    const refusals: Array<[string, unknown, RegExp]> = [
      ['retry', { query: { q: 'x' }, jobIds: ['1'] }, /query/],
      ['remove', { query: { q: 'x' }, status: 'failed', all: true }, /query/],
      ['retry', { query: { q: 'x', in: ['body'] } }, /query\.in/],
      ['retry', { query: { q: 'x', status: ['waiting'] } }, /query\.status/],
      ['retry', { query: { q: '' } }, /query\.q/],
      ['remove', { status: 'failed', all: true, cursor: 'abc' }, /cursor/],
      ['remove', { jobIds: ['1'], limit: 5 }, /limit/],
      ['retry', { status: 'failed', all: true, dryRun: true }, /dryRun/],
      ['retry', { query: { q: 'x' }, cursor: 'abc', async: true }, /cursor/],
      ['retry', { query: { q: 'x' }, data: { fixed: true } }, /data/],
    ];
    for (const [action, body, field] of refusals) {
      const answer = await post('orders', action, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(answer.body.message, JSON.stringify(body)).toMatch(field);
    }
  });

  it('refuses a cursor of another search or of a dry run', async () => {
    const queue = bed.openQueue('receipts');
    await failFor(bed, queue, customers.slice(0, 60));
    const first = await post('receipts', 'retry', { query: { q: needle }, dryRun: true, limit: 1 });
    expect(first.body.cursor).toEqual(expect.any(String));
    for (const body of [
      { query: { q: 'customer-7' }, dryRun: true },
      { query: { q: needle } },
      { query: { q: needle }, dryRun: true, cursor: 'bm90LWEtY3Vyc29y' },
    ]) {
      const answer = await post('receipts', 'retry', { cursor: first.body.cursor, ...body });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/cursor/);
    }
    expect(await queue.getJobCountByTypes('failed')).toBe(60);
  });
});
