import { Worker, type Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createBullpenClient } from '../../client/index.js';
import { followCursor, type SearchTotals } from '../../client/cli/commands/search-selection.js';
import { runBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { failJobs, queueTestBed } from '../helpers/queues.js';

const needle = 'customer-42';
/** 50 customers, two in five of them customer-42. */
const customers = Array.from({ length: 50 }, (_, n) => ({ customer: n % 5 < 2 ? needle : `customer-${7 + (n % 3)}` }));

describe('bullpen retry, remove and move --search (the real binary against a live server)', () => {
  const bed = queueTestBed();
  const bullpen = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: bed.app.url } });
  /** A job a real Worker completes; answers its id. */
  const completeOne = async (queue: Queue, data: Record<string, unknown>) => {
    const job = await queue.add('receipt', data);
    const worker = new Worker(queue.name, async () => 'sent', bed.fixture.bullmq);
    await waitFor(async () => (await queue.getJobState(job.id!)) === 'completed', 15_000, 'the job to complete');
    await worker.close();
    return job.id!;
  };

  it('counts with --dry-run, then retries the failed matches, continuing the cursor until done', async () => {
    const queue = bed.openQueue('emails');
    const ids = await failJobs(bed.fixture.bullmq, queue, customers);
    const matching = ids.filter((_, n) => customers[n]!.customer === needle);
    const completedMatch = await completeOne(queue, { customer: needle });

    const dry = await bullpen(['retry', 'emails', '--search', needle, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^would retry 20 job\(s\) matching "customer-42" in emails \(50 jobs scanned\)$/m);
    const sample = /^for example: (.+)$/m.exec(dry.stdout)?.[1]?.split(' ') ?? [];
    expect(sample.length).toBe(20);
    expect(matching).toEqual(expect.arrayContaining(sample));
    expect(await queue.getJobCountByTypes('failed')).toBe(50);

    const run = await bullpen(['retry', 'emails', '--search', needle, '--batch', '7']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('retried 20 job(s) matching "customer-42" in emails (50 jobs scanned)\n');
    expect((await queue.getWaiting(0, -1)).map((job) => job.id).sort()).toEqual([...matching].sort());
    expect(await queue.getJobCountByTypes('failed')).toBe(30);
    // `retry --search` means failed jobs unless --status says otherwise.
    expect(await queue.getJobState(completedMatch)).toBe('completed');
  });

  it('removes the matches of the statuses asked for, printing JSON totals', async () => {
    const queue = bed.openQueue('sms');
    await failJobs(bed.fixture.bullmq, queue, customers);
    const waiting = await queue.add('text', { customer: 'customer-7' });
    const run = await bullpen([
      'remove',
      'sms',
      '--search',
      'customer-7',
      '--in',
      'data',
      '--status',
      'failed',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ matched: 10, succeeded: 10, failed: 0, scanned: 50, refused: [] });
    expect(await queue.getJobCountByTypes('failed')).toBe(40);
    expect(await queue.getJob(waiting.id!)).toBeDefined();
  });

  it('moves the matches to another queue: --dry-run counts and moves nothing, the real run follows the cursor until done', async () => {
    const source = bed.openQueue('invoices');
    const target = bed.openQueue('invoices-dlq');
    const ids = await failJobs(bed.fixture.bullmq, source, customers);
    const matching = ids.filter((_, n) => customers[n]!.customer === needle);
    const waitingMatch = await source.add('late', { customer: needle });

    const dry = await bullpen([
      'move',
      'invoices',
      '--to',
      'invoices-dlq',
      '--search',
      needle,
      '--status',
      'failed',
      '--dry-run',
      '--batch',
      '7',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /^would move 20 job\(s\) matching "customer-42" in invoices to invoices-dlq \(50 jobs scanned\)$/m,
    );
    expect(await source.getJobCountByTypes('failed')).toBe(50);
    expect(await target.getWaitingCount()).toBe(0);

    // 20 matches at 7 a request: only a followed cursor moves them all.
    const run = await bullpen([
      'move',
      'invoices',
      '--to',
      'invoices-dlq',
      '--search',
      needle,
      '--status',
      'failed',
      '--batch',
      '7',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('moved 20 job(s) matching "customer-42" in invoices to invoices-dlq (50 jobs scanned)\n');
    const moved = await target.getWaiting(0, -1);
    expect(moved.map((job) => job.data.customer)).toEqual(Array(20).fill(needle));
    expect(await source.getJobCountByTypes('failed')).toBe(30);
    for (const id of matching) expect(await source.getJob(id)).toBeUndefined();
    expect(await source.getJobState(waitingMatch.id!)).toBe('waiting');
  });

  it('starts a background task with --async, and refuses flags that do not go together', async () => {
    await failJobs(bed.fixture.bullmq, bed.openQueue('pushes'), customers.slice(0, 5));
    const started = await bullpen(['retry', 'pushes', '--search', needle, '--async']);
    expect(started.stdout).toMatch(/^task \S+ started; follow it with: bullpen tasks \S+$/m);
    for (const args of [
      ['retry', 'pushes', '1', '--search', 'x'],
      ['retry', 'pushes', '--dry-run', '--all-failed'],
      ['remove', 'pushes', '--search', 'x', '--async', '--dry-run'],
      ['remove', 'pushes'],
      ['move', 'pushes', '--to', 'x', '--search', 'y', '1'],
      ['move', 'pushes', '--to', 'x', '--status', 'failed', '--batch', '5'],
    ]) {
      const refused = await bullpen(args);
      expect(refused.code, args.join(' ')).toBe(2);
    }
  });

  it('reports the running totals after every answer while it follows the cursor', async () => {
    const queue = bed.openQueue('letters');
    await failJobs(bed.fixture.bullmq, queue, customers);
    const client = createBullpenClient({ baseUrl: bed.app.url });
    const seen: SearchTotals[] = [];
    const totals = await followCursor(
      (cursor) =>
        client.jobs.remove.mutate({
          connectionId: 'main',
          queueName: 'letters',
          query: { q: needle, status: ['failed'] },
          limit: 6,
          ...(cursor ? { cursor } : {}),
        }),
      (sum) => seen.push(structuredClone(sum)),
    );
    expect(totals).toMatchObject({ matched: 20, succeeded: 20, failed: 0, scanned: 50 });
    expect(seen.map((sum) => sum.succeeded)).toEqual([6, 12, 18, 20]);
  });
});
