import { Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StageService } from './support/lifecycle-stage.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { lifecycleStage } from './support/lifecycle-stage.js';
import { residentMemory, slowRead } from './support/slow-reader.js';

const readers = 30;
const jobBytes = 5_000_000;
const readBytesPerSecond = chaosSize(2_000_000, 500_000);
const rssLimit = 250 * 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** ~5 MB of job data as programs send it: many small records, not one long string. */
function bigData(): { records: Array<{ id: number; name: string; tags: string[]; amount: number }> } {
  const records = [];
  for (let id = 0; JSON.stringify(records).length < jobBytes; id += 1_000) {
    for (let n = id; n < id + 1_000; n++)
      records.push({ id: n, name: `customer-${n}-${'x'.repeat(40)}`, tags: ['a', 'b', `t${n % 17}`], amount: n * 1.5 });
  }
  return { records };
}

/**
 * Issue 34, item 3: 30 slow readers of a 5 MB job at once. Large bodies wait their turn in the
 * body budget and are read whole only when there is room, so the service's RSS stays ≤ 250 MB
 * (the fault run: 558 MB, peak 683), and every reader still gets the whole job.
 */
describe('30 slow readers of a 5 MB job', () => {
  const stage = lifecycleStage();
  let service: StageService;
  let jobUrl: string;
  beforeAll(async () => {
    service = await stage.startService();
    const queue = new Queue('big-job', { connection: { host: '127.0.0.1', port: 6379 }, prefix: stage.prefix });
    const job = await queue.add('big', bigData());
    await queue.close();
    jobUrl = `${service.api}/c/main/queues/big-job/jobs/${job.id}`;
  });

  it(`keeps the service's RSS ≤ 250 MB and answers every reader in full`, { timeout: chaosTimeout() }, async () => {
    const one = await slowRead(jobUrl, 1e9);
    expect(one.status).toBe(200);
    const before = await residentMemory(service.child.pid!);
    let peak = before.rss;
    const poll = setInterval(
      () =>
        void residentMemory(service.child.pid!).then(
          (memory) => (peak = Math.max(peak, memory.rss)),
          () => undefined,
        ),
      50,
    );
    const reads = await Promise.all(
      Array.from({ length: readers }, () => slowRead(jobUrl, readBytesPerSecond)),
    ).finally(() => clearInterval(poll));
    const whole = reads.filter((read) => read.status === 200 && read.bytes === one.bytes).length;
    const slowest = Math.max(...reads.map((read) => read.ms));
    recordChaosRow({
      scenario: `${readers} slow readers (${readBytesPerSecond / 1e6} MB/s) of a ${(one.bytes / 1e6).toFixed(1)} MB job`,
      expected: 'service RSS ≤ 250 MB; every reader gets the whole job',
      observed: `RSS ${mb(before.rss)} → peak ${mb(peak)}; ${whole}/${readers} whole; slowest ${(slowest / 1000).toFixed(1)} s`,
      held: peak <= rssLimit && whole === readers,
    });
    expect(whole).toBe(readers);
    expect(peak).toBeLessThanOrEqual(rssLimit);
  });
});
