import { Worker, type Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseWhere } from '../../contracts/job-where.js';
import { taskHandlers } from '../../routers/_app.js';
import { TaskRunner } from '../../server/tasks/task-runner.js';
import { request } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

/**
 * Structured search (issue 33, item 4): field paths with a value, on jobs real workers completed and
 * failed, through the search route, the query form of bulk actions (synchronous and as a task) and the CLI.
 */
const bed = queueTestBed();
const search = (queueName: string, params: Record<string, string>) =>
  request(`${bed.app.api}/c/main/queues/${queueName}/search?${new URLSearchParams(params)}`);
const post = (queueName: string, action: string, body: unknown) =>
  request(`${bed.app.api}/c/main/queues/${queueName}/jobs/${action}`, { method: 'POST', body });
const ids = (body: { jobs: Array<{ id: string }> }) =>
  body.jobs.map((job) => job.id).sort((a, b) => Number(a) - Number(b));

/** Order n: customer 42 (as a number when n is even, as text when odd) for n % 4 === 0 or 1; items with SKUs; a city with a space for n % 10 === 0. */
const order = (n: number) => ({
  n,
  customer: { id: n % 4 < 2 ? (n % 2 === 0 ? 42 : '42') : 7 + (n % 4), city: n % 10 === 0 ? 'New York' : 'Lyon' },
  items: [
    { sku: n % 3 === 0 ? 'ABC' : 'XYZ', qty: n },
    { sku: 'P-1', qty: 1 },
  ],
  total: n * 10,
  fail: n % 2 === 1,
});

let orders: Queue;
const byN = new Map<number, string>();
const idsWhere = (test: (n: number) => boolean) =>
  [...byN]
    .filter(([n]) => test(n))
    .map(([, id]) => id)
    .sort((a, b) => Number(a) - Number(b));

beforeAll(async () => {
  orders = bed.openQueue('orders');
  const worker = new Worker(
    'orders',
    async (job) => {
      if (job.data.fail) throw new Error(`card declined for order ${job.data.n}`);
      return { charged: job.data.total };
    },
    { ...bed.fixture.bullmq, concurrency: 10 },
  );
  bed.closeLater(worker);
  const added = await orders.addBulk(
    Array.from({ length: 40 }, (_, n) => ({ name: n < 20 ? 'checkout' : 'refund', data: order(n) })),
  );
  added.forEach((job, n) => {
    byN.set(n, job.id!);
  });
  await waitFor(
    async () => (await orders.getJobCountByTypes('completed', 'failed')) === 40,
    20_000,
    'the workers to settle the orders',
  );
  await worker.close();
  // Waiting jobs with priorities: opts.priority is read from the stored options.
  const waiting = await orders.addBulk(
    [1, 3, 7, 9].map((priority) => ({ name: 'later', data: { n: 100 + priority }, opts: { priority } })),
  );
  waiting.forEach((job) => {
    byN.set(job.data.n, job.id!);
  });
});

describe('the where grammar', () => {
  it('reads paths, operators and quoted values', () => {
    expect(
      parseWhere('data.customer.id:42 data.items[].sku:"AB C" opts.priority>=5 name~check data.list[2]:x'),
    ).toEqual([
      {
        text: 'data.customer.id:42',
        root: 'data',
        steps: [{ key: 'customer' }, { key: 'id' }],
        operator: ':',
        value: '42',
        quoted: false,
      },
      {
        text: 'data.items[].sku:"AB C"',
        root: 'data',
        steps: [{ key: 'items' }, { each: true }, { key: 'sku' }],
        operator: ':',
        value: 'AB C',
        quoted: true,
      },
      {
        text: 'opts.priority>=5',
        root: 'opts',
        steps: [{ key: 'priority' }],
        operator: '>=',
        value: '5',
        quoted: false,
      },
      { text: 'name~check', root: 'name', steps: [], operator: '~', value: 'check', quoted: false },
      {
        text: 'data.list[2]:x',
        root: 'data',
        steps: [{ key: 'list' }, { index: 2 }],
        operator: ':',
        value: 'x',
        quoted: false,
      },
    ]);
  });
});

describe('GET …/search?where=', () => {
  it('matches nested values: a number or the same text, any array element, quoted values, numbers compared', async () => {
    const customer = await search('orders', { where: 'data.customer.id:42', limit: '100' });
    expect(customer.status).toBe(200);
    expect(ids(customer.body)).toEqual(idsWhere((n) => n < 40 && n % 4 < 2));
    expect(ids((await search('orders', { where: 'data.items[].sku:ABC', limit: '100' })).body)).toEqual(
      idsWhere((n) => n < 40 && n % 3 === 0),
    );
    expect(ids((await search('orders', { where: 'data.customer.city:"New York"', limit: '100' })).body)).toEqual(
      idsWhere((n) => n < 40 && n % 10 === 0),
    );
    expect(ids((await search('orders', { where: 'data.total>=300 data.total<350', limit: '100' })).body)).toEqual(
      idsWhere((n) => n >= 30 && n < 35),
    );
    expect(ids((await search('orders', { where: 'opts.priority>5', limit: '100' })).body)).toEqual([
      byN.get(107),
      byN.get(109),
    ]);
    expect(ids((await search('orders', { where: 'returnvalue.charged>380', limit: '100' })).body)).toEqual(
      idsWhere((n) => n < 40 && n * 10 > 380 && n % 2 === 0),
    );
    expect(
      ids((await search('orders', { where: 'failedReason~"ORDER 3"', status: 'failed', limit: '100' })).body),
    ).toEqual(idsWhere((n) => n < 40 && n % 2 === 1 && String(n).startsWith('3')));
    expect(
      ids((await search('orders', { where: 'name:refund attemptsMade>=1 data.customer.id:42', limit: '100' })).body),
    ).toEqual(idsWhere((n) => n >= 20 && n < 40 && n % 4 < 2));
  });

  it('takes q and where together: a job must match both', async () => {
    const both = await search('orders', { q: 'new york', in: 'data', where: 'data.customer.id:42', limit: '100' });
    expect(ids(both.body)).toEqual(idsWhere((n) => n < 40 && n % 10 === 0 && n % 4 < 2));
  });

  it('is bounded and resumable: a page of matches, then the cursor, each match once; a cursor continues only its own where', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await search('orders', {
        where: 'data.customer.id:42',
        status: 'failed,completed',
        limit: '3',
        ...(cursor ? { cursor } : {}),
      });
      expect(page.status).toBe(200);
      expect(page.body.jobs.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.jobs.map((job: { id: string }) => job.id));
      cursor = page.body.cursor;
      if (pages++ === 0) {
        const other = await search('orders', {
          where: 'data.customer.id:43',
          status: 'failed,completed',
          limit: '3',
          cursor: cursor!,
        });
        expect(other.status).toBe(400);
        expect(other.body.message).toMatch(/cursor belongs to another search/);
      }
    } while (cursor && pages < 20);
    expect(seen.sort((a, b) => Number(a) - Number(b))).toEqual(idsWhere((n) => n < 40 && n % 4 < 2));
    expect(pages).toBeGreaterThanOrEqual(7);
  });

  it('answers a 400 naming where, saying what is wrong and where, for a term it cannot read', async () => {
    const cases: Array<[string, RegExp]> = [
      ['data.customer.id:', /expected a value after ":" \(at character 18\)/],
      ['customer.id:42', /a path starts with one of data, opts, returnvalue, progress, id, name, .*not "customer"/],
      ['opts.priority>high', /> compares numbers; "high" is not one/],
      ['name.first:x', /name has no fields/],
      ['data.x=1', /expected one of : \(equals\), ~ \(contains\), >, >=, <, <= after the path/],
      ['data.x:"open', /a quoted value is not closed/],
      ['data.items[x]:1', /expected "\[\]" \(every element\) or "\[n\]"/],
      [Array.from({ length: 11 }, (_, n) => `data.k${n}:1`).join(' '), /at most 10 terms/],
    ];
    for (const [where, message] of cases) {
      const answer = await search('orders', { where });
      expect(answer.status, where).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(answer.body.issues[0].path).toEqual(['where']);
      expect(answer.body.message).toMatch(message);
    }
    const neither = await search('orders', { status: 'failed' });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toMatch(/give q \(text to find\), where/);
  });
});

describe('the query form of bulk actions takes where', () => {
  it('counts with a dry run, retries exactly those, and refuses a bad term before acting', async () => {
    const query = { where: 'data.customer.id:42 data.items[].sku:ABC', status: ['failed'] };
    const expected = idsWhere((n) => n < 40 && n % 2 === 1 && n % 4 < 2 && n % 3 === 0);
    const dry = await post('orders', 'retry', { query, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ matched: expected.length, done: true });
    expect([...dry.body.sampleIds].sort((a: string, b: string) => Number(a) - Number(b))).toEqual(expected);
    const bad = await post('orders', 'retry', { query: { where: 'data.customer.id:' } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toEqual(['query', 'where']);
    const failedBefore = await orders.getJobCountByTypes('failed');
    const retried = await post('orders', 'retry', { query });
    expect(retried.body).toMatchObject({ succeeded: expected.length, failed: 0, done: true });
    expect(await orders.getJobCountByTypes('failed')).toBe(failedBefore - expected.length);
    for (const id of expected) expect(await orders.getJobState(id)).toBe('waiting');
  });

  it('runs as a background task (async) with the same matches', async () => {
    const expected = idsWhere((n) => n < 40 && n % 2 === 0 && n % 10 === 0);
    const accepted = await post('orders', 'remove', {
      query: { where: 'data.customer.city:"New York"', status: ['completed'] },
      async: true,
    });
    expect(accepted.status).toBe(202);
    const { persistence, connections, stores, logger } = bed.app.services;
    const runner = new TaskRunner({ persistence, connections, stores, logger }, { pollMs: 50 });
    runner.useHandlers(taskHandlers);
    expect(await runner.runOnce()).toBe(true);
    const task = (await request(`${bed.app.api}/c/main/tasks/${accepted.body.taskId}`)).body;
    expect(task).toMatchObject({
      state: 'done',
      kind: 'jobs.remove',
      result: { removed: expected.length, refused: 0 },
    });
    for (const id of expected) expect(await orders.getJob(id)).toBeUndefined();
  });

  it('bullpen jobs --where lists matches; bullpen retry --where --dry-run counts them', async () => {
    const env = { env: { BULLPEN_URL: bed.app.url } };
    const listed = await runBullpen(
      ['jobs', 'orders', '--where', 'data.customer.id:42 name:refund', '--status', 'completed'],
      env,
    );
    expect(listed.code).toBe(0);
    const expected = idsWhere((n) => n >= 20 && n < 40 && n % 4 === 0 && n % 10 !== 0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${expected.length} match\\(es\\), \\d+ job\\(s\\) scanned, search done$`, 'm'),
    );
    for (const id of expected) expect(listed.stdout).toMatch(new RegExp(`^completed\\s+${id}\\s+refund\\s`, 'm'));
    const dry = await runBullpen(
      ['retry', 'orders', '--where', 'data.items[].sku:ABC', '--status', 'completed', '--dry-run'],
      env,
    );
    expect(dry.code).toBe(0);
    const completedAbc = idsWhere((n) => n < 40 && n % 2 === 0 && n % 3 === 0 && n % 10 !== 0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `^would retry ${completedAbc.length} job\\(s\\) matching where data\\.items\\[\\]\\.sku:ABC in orders`,
        'm',
      ),
    );
  });
});
