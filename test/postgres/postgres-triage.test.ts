import { FlowProducer, createPostgresBackend } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';
import { runPostgresWorker } from './support/run-worker.js';

/** Failure triage, stack traces, the job tree and the history's insights and latency on a PostgreSQL connection. */
const bed = postgresBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });
const get = (url: string) => bed.call('GET', url);

class SmtpTimeoutError extends Error {
  override name = 'SmtpTimeoutError';
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('failure triage on PostgreSQL', () => {
  beforeAll(async () => {
    // 12 jobs: 4 bad recipients, 6 SMTP timeouts (numbers differ), 2 completed.
    const jobs = Array.from({ length: 12 }, (_, n) => ({ name: n % 3 === 0 ? 'notify' : 'send', data: { n } }));
    await runPostgresWorker(bed, 'mailer', jobs, async (job) => {
      const n = job.data.n as number;
      await sleep(n === 11 ? 600 : 5);
      if (n < 4) throw new TypeError(`recipient customer${n}@example.com refused (order ord-${7000 + n})`);
      if (n < 10) throw new SmtpTimeoutError(`smtp.example.com:587 timed out after ${30_000 + n} ms`);
      return 'sent';
    });
  }, 30_000);

  it('groups failed jobs by error class and normalised reason, newest failure first', async () => {
    const { status, body } = await get(bed.queueUrl('mailer', '/failures?window=1h'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ scanned: 10, scannedTotal: 10, done: true, cursor: null });
    expect(body.groups.map((group: { errorClass: string; count: number }) => [group.errorClass, group.count])).toEqual([
      ['SmtpTimeoutError', 6],
      ['TypeError', 4],
    ]);
    expect(body.groups[0].reason).toBe('smtp.example.com:<n> timed out after <n> ms');
    const [newest] = await bed.fixture.queue('mailer').getFailed(0, 0);
    expect(body.groups[0].lastSeen).toBe(newest!.finishedOn);
  });

  it('pages by cursor, each failed job counted once; 404 for a queue that is not there', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: any } = await get(
        bed.queueUrl('mailer', `/failures?window=1h&limit=3${cursor ? `&cursor=${cursor}` : ''}`),
      );
      for (const group of page.body.groups) seen.push(...group.exampleIds);
      cursor = page.body.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(10);
    expect((await get(bed.queueUrl('ghost', '/failures?window=1h'))).status).toBe(404);
  });

  it('reads insights: the names failing most and the slowest jobs, with percentiles', async () => {
    const { status, body } = await get(bed.queueUrl('mailer', '/history/insights?window=1h'));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      queueName: 'mailer',
      prefix: 'bullmq',
      completed: { inWindow: 2, examined: 2 },
      failed: { inWindow: 10, examined: 10 },
      exact: true,
    });
    expect(body.topFailingNames).toEqual([
      { name: 'send', failed: 6, completed: 2, failureRate: 0.75 },
      { name: 'notify', failed: 4, completed: 0, failureRate: 1 },
    ]);
    expect(body.slowestJobs[0]).toMatchObject({ name: 'send', state: 'completed' });
    expect(body.slowestJobs[0].processingMs).toBeGreaterThanOrEqual(600);
    expect(body.processingMs.p99).toBeGreaterThanOrEqual(600);
    expect(body.waitMs.p50).toBeGreaterThanOrEqual(0);
  });
});

describe('history latency on PostgreSQL', () => {
  it('records p50/p95/p99 processing times of the jobs finished since the previous sample', async () => {
    await bed.app.services.history.sampleOnce();
    // 20 jobs one at a time: 18 of 10 ms, one of 200 ms, one of 600 ms (the last).
    const jobs = Array.from({ length: 20 }, (_, n) => ({
      name: 'timed',
      data: { ms: n === 19 ? 600 : n === 18 ? 200 : 10 },
    }));
    await runPostgresWorker(bed, 'timed', jobs, async (job) => sleep(job.data.ms));
    await sleep(1100);
    await bed.app.services.history.sampleOnce();
    const point = (await get(bed.queueUrl('timed', '/history?points=500'))).body.points.at(-1);
    expect(point.processingMs.p50).toBeGreaterThanOrEqual(10);
    expect(point.processingMs.p50).toBeLessThan(200);
    expect(point.processingMs.p95).toBeGreaterThanOrEqual(200);
    expect(point.processingMs.p95).toBeLessThan(600);
    expect(point.processingMs.p99).toBeGreaterThanOrEqual(600);
    expect(point.waitMs.p50).toBeGreaterThanOrEqual(0);
  });
});

describe('stack traces and the job tree on PostgreSQL', () => {
  it('clears stack traces keeping the newest, audited; 404 for a job that is not there', async () => {
    const jobs = [{ name: 'flaky', data: {}, opts: { attempts: 3 } }];
    await runPostgresWorker(bed, 'traces', jobs, async (job) => {
      throw new Error(`attempt ${job.attemptsMade + 1}`);
    });
    const [job] = await bed.fixture.queue('traces').getFailed();
    expect(job!.stacktrace).toHaveLength(3);
    const cleared = await bed.call('DELETE', bed.queueUrl('traces', `/jobs/${job!.id}/stacktraces?keep=1`));
    expect(cleared.body).toEqual({ success: true, id: job!.id, removed: 2, kept: 1 });
    const traces = (await bed.fixture.queue('traces').getJob(job!.id!))!.stacktrace;
    expect(traces).toHaveLength(1);
    expect(traces?.[0]).toMatch(/attempt 3/);
    const audit = await get(`${bed.app.api}/audit?action=jobs.stacktraces.clear`);
    expect(audit.body.events[0]).toMatchObject({ action: 'jobs.stacktraces.clear', connectionId: 'main' });
    expect((await bed.call('DELETE', bed.queueUrl('traces', '/jobs/404/stacktraces?keep=0'))).status).toBe(404);
  });

  it('returns the flow below a job across queues, bounded in depth and breadth', async () => {
    const flows = new FlowProducer(bed.fixture.bullmq, createPostgresBackend);
    try {
      const tree = await flows.add({
        name: 'assemble',
        queueName: 'cars',
        children: [
          { name: 'wheel', queueName: 'parts', data: { n: 1 } },
          { name: 'wheel', queueName: 'parts', data: { n: 2 } },
          { name: 'frame', queueName: 'parts', children: [{ name: 'weld', queueName: 'welding' }] },
        ],
      });
      const full = await get(bed.queueUrl('cars', `/jobs/${tree.job.id}/tree`));
      expect(full.status).toBe(200);
      expect(full.body.nodes).toBe(5);
      expect(full.body.root).toMatchObject({
        name: 'assemble',
        queueName: 'cars',
        prefix: 'bullmq',
        state: 'waitingChildren',
        childrenTotal: 3,
      });
      const frame = full.body.root.children.find((node: { name: string }) => node.name === 'frame');
      expect(frame).toMatchObject({ queueName: 'parts', childrenTotal: 1, truncated: false, state: 'waitingChildren' });
      expect(frame.children[0]).toMatchObject({ name: 'weld', queueName: 'welding', state: 'waiting', children: [] });
      const shallow = await get(bed.queueUrl('cars', `/jobs/${tree.job.id}/tree?depth=1&maxChildren=2`));
      expect(shallow.body.nodes).toBe(3);
      expect(shallow.body.root).toMatchObject({ childrenTotal: 3, truncated: true });
      expect((await get(bed.queueUrl('cars', '/jobs/404/tree'))).status).toBe(404);
    } finally {
      await flows.close();
    }
  });
});
