import { describe, expect, it } from 'vitest';
import { LargeCounts } from '../../server/postgres/large-counts.js';
import { postgresBed } from '../helpers/postgres-bed.js';

/** A window of a minute: a count past 1,000 jobs is served from the last count within it; one up to 1,000 is exact. */
const bed = postgresBed({ SERVICE_QUEUE_LIST_CACHE_MS: '60000' });
const waitingTotal = async (queue: string) =>
  (await bed.call('GET', bed.queueUrl(queue, '/jobs?status=waiting&limit=5'))).body.total;
const listed = async (queue: string) =>
  (await bed.call('GET', `${bed.app.api}/c/main/queues?search=${queue}`)).body.queues[0].jobCounts.waiting;

describe('counts past 1,000 jobs on PostgreSQL', () => {
  it('serves a large count from its window and counts a small one exactly', async () => {
    const big = bed.fixture.queue('big');
    await big.addBulk(Array.from({ length: 1005 }, (_, i) => ({ name: `job-${i}`, data: {} })));
    const small = await bed.fixture.seed('small', { waiting: 3 });
    expect(await waitingTotal('big')).toBe(1005);
    expect(await listed('big')).toBe(1005);
    await big.addBulk(Array.from({ length: 3 }, (_, i) => ({ name: `more-${i}`, data: {} })));
    await small.add('more', {});
    expect(await waitingTotal('big')).toBe(1005);
    expect(await listed('big')).toBe(1005);
    expect(await waitingTotal('small')).toBe(4);
    expect(await listed('small')).toBe(4);
  });

  it('counts a large status of a queue whose name needs quoting (the count goes in as a literal)', async () => {
    const name = "o'neil\\archive";
    await bed.fixture.queue(name).addBulk(Array.from({ length: 1002 }, (_, i) => ({ name: `job-${i}`, data: {} })));
    expect(await waitingTotal(name)).toBe(1002);
  });
});

describe('LargeCounts', () => {
  it('counts once for concurrent requests, serves the count within its window, counts exactly with no window', async () => {
    let counted = 0;
    const exact = async () => {
      counted++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 5000;
    };
    const large = new LargeCounts(60_000);
    expect(large.probeLimit).toBe(1001);
    expect(large.stoppedAtLimit(1001)).toBe(true);
    expect(large.stoppedAtLimit(1000)).toBe(false);
    expect(await Promise.all([large.count('q', exact), large.count('q', exact)])).toEqual([5000, 5000]);
    expect(await large.count('q', exact)).toBe(5000);
    expect(counted).toBe(1);
    const exactEveryTime = new LargeCounts(0);
    expect(exactEveryTime.probeLimit).toBeNull();
    expect(exactEveryTime.stoppedAtLimit(1_000_000)).toBe(false);
  });

  it('recounts a count asked for lately before its window ends, and stops once it is no longer asked for', async () => {
    let counted = 0;
    const exact = async () => {
      counted++;
      return 5000;
    };
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // A 40 ms window: timed recounts at 80 % of it while the count was asked for within three windows.
    const large = new LargeCounts(40, 1000, 3);
    expect(await large.count('q', exact)).toBe(5000);
    await sleep(60);
    expect(counted).toBeGreaterThanOrEqual(2);
    await sleep(400);
    const settled = counted;
    expect(settled).toBeLessThanOrEqual(6);
    await sleep(200);
    expect(counted).toBe(settled);
    large.stop();
  });
});
