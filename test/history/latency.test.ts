import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { latencyJobsPerCall, latencyJobsPerQueue } from '../../server/history/sample-latency.js';
import {
  collectSample,
  totalsOf,
  type ConnectionSample,
  type QueuePoint,
} from '../../server/history/collect-sample.js';
import { commandsDuring } from '../helpers/command-count.js';
import { writeSample } from '../../server/history/write-sample.js';
import { persistenceKinds, request } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { queueTestBed, type QueueTestBed } from '../helpers/queues.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one job per entry through a real Worker (concurrency 1): each sleeps `ms`, then fails when `fail` is set. */
async function runJobs(
  bed: QueueTestBed,
  queueName: string,
  jobs: Array<{ name?: string; ms: number; fail?: boolean }>,
  concurrency = 1,
): Promise<string[]> {
  const queue = bed.openQueue(queueName);
  const worker = new Worker(
    queueName,
    async (job) => {
      await sleep(job.data.ms);
      if (job.data.fail) throw new Error(`${job.name} failed`);
      return 'ok';
    },
    { ...bed.fixture.bullmq, concurrency },
  );
  const settled = new Promise<void>((resolve) => {
    let n = 0;
    const settle = () => ++n === jobs.length && resolve();
    worker.on('completed', settle);
    worker.on('failed', settle);
  });
  const added = await queue.addBulk(jobs.map((job) => ({ name: job.name ?? 'work', data: job })));
  await settled;
  await worker.close();
  return added.map((job) => job.id!);
}

describe.each(persistenceKinds)('latency in the history (%s persistence)', (persistence) => {
  const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' }, { persistence });
  const history = (queueName: string) => request(`${bed.app.api}/c/main/queues/${queueName}/history?points=500`);

  it('records p50/p95/p99 processing and wait times of the jobs finished since the previous sample', async () => {
    await bed.app.services.history.sampleOnce();
    // 20 jobs one at a time: 10 of 20 ms, 9 of 200 ms, one of 1,000 ms (the last): p50 is a 20 ms job, p95 a 200 ms one, p99 the
    // 1,000 ms one. The steps are 10× apart so a loaded machine (a 20 ms sleep seen taking 62 ms) cannot blur them.
    await runJobs(bed, 'timed', [...Array(10).fill({ ms: 20 }), ...Array(9).fill({ ms: 200 }), { ms: 1000 }]);
    await bed.app.services.history.sampleOnce();
    const point = (await history('timed')).body.points.at(-1);
    expect(point).toMatchObject({ completedDelta: 20, latencyJobs: 20 });
    expect(point.processingMs.p50).toBeGreaterThanOrEqual(20);
    expect(point.processingMs.p50).toBeLessThan(200);
    expect(point.processingMs.p95).toBeGreaterThanOrEqual(200);
    expect(point.processingMs.p95).toBeLessThan(1000);
    expect(point.processingMs.p99).toBeGreaterThanOrEqual(1000);
    expect(point.processingMs.p99).toBeLessThan(5000);
    // Added together and run one at a time: the last job waited for the 19 before it (over 1,990 ms of work).
    expect(point.waitMs.p99).toBeGreaterThanOrEqual(1990);
    expect(point.waitMs.p50).toBeLessThanOrEqual(point.waitMs.p99);

    // Nothing finished since: the next sample measures nothing (its row; steps of 5 s would merge the two samples).
    await bed.app.services.history.sampleOnce();
    const [latest] = await bed.app.services.persistence
      .fork()
      .execute<Array<Record<string, unknown>>>(
        "select completed_delta, latency_jobs, processing_p50_ms, wait_p99_ms from queue_sample where queue_name = 'timed' and resolution = 'raw' order by at desc limit 1",
      );
    expect(latest).toMatchObject({ latency_jobs: 0, processing_p50_ms: null, wait_p99_ms: null });
    expect(Number(latest!.completed_delta)).toBe(0);
  });

  it("rolls samples up into 15 minutes: jobs summed, each percentile the worst sample's, a sample without jobs changing none", async () => {
    const bucket = Math.floor(Date.now() / 900_000) * 900_000 - 900_000;
    const point = (latency: QueuePoint['latency']): QueuePoint => ({
      prefix: bed.fixture.prefix,
      queueName: 'rolled',
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      completed: 0,
      completedDelta: 0,
      failedDelta: 0,
      oldestWaitingSeconds: 0,
      paused: false,
      workers: 0,
      latency,
    });
    const sample = (at: number, latency: QueuePoint['latency']): ConnectionSample => ({
      at,
      queues: [point(latency)],
      totals: totalsOf([point(latency)]),
      store: { up: true, usedMemory: 1, maxMemory: 0, clients: 1, opsPerSecond: 0 },
    });
    const em = () => bed.app.services.persistence.fork();
    await writeSample(
      em(),
      'main',
      sample(bucket + 60_000, { jobs: 10, processingMs: [10, 90, 200], waitMs: [5, 50, 80] }),
    );
    await writeSample(
      em(),
      'main',
      sample(bucket + 120_000, { jobs: 4, processingMs: [30, 40, 500], waitMs: [1, 2, 3] }),
    );
    await writeSample(em(), 'main', sample(bucket + 180_000, null));
    const [row] = await em().execute<Array<Record<string, unknown>>>(
      "select * from queue_sample where queue_name = 'rolled' and resolution = '15m'",
    );
    expect(
      Object.fromEntries(
        [
          'latency_jobs',
          'processing_p50_ms',
          'processing_p95_ms',
          'processing_p99_ms',
          'wait_p50_ms',
          'wait_p95_ms',
          'wait_p99_ms',
        ].map((column) => [column, Number(row![column])]),
      ),
    ).toEqual({
      latency_jobs: 14,
      processing_p50_ms: 30,
      processing_p95_ms: 90,
      processing_p99_ms: 500,
      wait_p50_ms: 5,
      wait_p95_ms: 50,
      wait_p99_ms: 80,
    });
  });

  it('reads latency in one more script call for the queues that finished jobs (≤ 1,000 job reads each), none when nothing finished', async () => {
    await bed.app.services.history.sampleOnce();
    await runJobs(bed, 'busy-a', [{ ms: 5 }, { ms: 5 }]);
    await runJobs(bed, 'busy-b', [{ ms: 5 }]);
    const store = bed.app.services.stores.handle((await bed.app.services.connections.find('main'))!);
    const scripts = async (since: number) => {
      const sent = await commandsDuring(store.client, () =>
        collectSample(store, bed.app.services.queueDirectory, since, Date.now()),
      );
      expect(sent.filter((name) => ['zrevrangebyscore', 'hmget', 'zcount', 'zrange'].includes(name))).toEqual([]);
      return sent.filter((name) => name === 'evalsha' || name === 'eval').length;
    };
    expect(latencyJobsPerCall).toBe(1000);
    expect(await scripts(Date.now() - 60_000)).toBe(2);
    expect(await scripts(Date.now())).toBe(1);
  });

  it('measures at most the newest 100 finished jobs per queue and sample', async () => {
    await bed.app.services.history.sampleOnce();
    // 200 instant jobs, then 100 of 40 ms: the 100 newest are the slow ones.
    await runJobs(bed, 'capped', Array(200).fill({ ms: 0 }), 20);
    await runJobs(bed, 'capped', Array(100).fill({ ms: 40 }), 20);
    await bed.app.services.history.sampleOnce();
    const point = (await history('capped')).body.points.at(-1);
    expect(latencyJobsPerQueue).toBe(100);
    expect(point).toMatchObject({ completedDelta: 300, latencyJobs: 100 });
    expect(point.processingMs.p50).toBeGreaterThanOrEqual(40);
  });
});

describe('latency roll-ups, insights, Prometheus and the CLI', () => {
  const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5', SERVICE_METRICS_QUEUES: 'checkout*' });
  const api = (path: string) => request(`${bed.app.api}${path}`);

  it('GET …/history/insights names the jobs failing most and the slowest jobs of the window', async () => {
    const ids = await runJobs(bed, 'checkout', [
      ...Array(4).fill({ name: 'charge', ms: 1, fail: true }),
      ...Array(2).fill({ name: 'email', ms: 1, fail: true }),
      { name: 'email', ms: 1 },
      { name: 'report', ms: 250 },
      { name: 'charge', ms: 120 },
      ...Array(5).fill({ name: 'ok', ms: 1 }),
    ]);
    const insights = await api('/c/main/queues/checkout/history/insights?window=1h');
    expect(insights.status).toBe(200);
    expect(insights.body).toMatchObject({
      queueName: 'checkout',
      prefix: bed.fixture.prefix,
      exact: true,
      completed: { inWindow: 8, examined: 8 },
      failed: { inWindow: 6, examined: 6 },
      topFailingNames: [
        { name: 'charge', failed: 4, completed: 1, failureRate: 0.8 },
        { name: 'email', failed: 2, completed: 1 },
      ],
    });
    expect(
      insights.body.slowestJobs
        .slice(0, 2)
        .map((job: { id: string; name: string; state: string }) => [job.id, job.name, job.state]),
    ).toEqual([
      [ids[7], 'report', 'completed'],
      [ids[8], 'charge', 'completed'],
    ]);
    expect(insights.body.slowestJobs[0].processingMs).toBeGreaterThanOrEqual(250);
    expect(insights.body.slowestJobs).toHaveLength(10);
    expect(insights.body.processingMs.p99).toBeGreaterThanOrEqual(250);
    const cli = await runBullpen(['insights', 'checkout', '--window', '1h'], { env: { BULLPEN_URL: bed.app.url } });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^checkout: 14 job\(s\) finished since .+Z$/m);
    expect(cli.stdout).toMatch(/^charge\s+4\s+1\s+80%$/m);
    expect(cli.stdout).toMatch(new RegExp(`^${ids[7]}\\s+report\\s+completed\\s+2\\d\\dms\\s`, 'm'));
    expect((await api('/c/main/queues/checkout/history/insights?window=1w')).status).toBe(400);
    expect((await api('/c/main/queues/no-such-queue/history/insights')).status).toBe(404);
  });

  it('exports bullpen_job_processing_seconds as a summary per queue from the latest sample, for the queues SERVICE_METRICS_QUEUES names', async () => {
    await bed.app.services.history.sampleOnce();
    await runJobs(bed, 'checkout-slow', [{ ms: 200 }, { ms: 200 }]);
    await runJobs(bed, 'elsewhere', [{ ms: 10 }]);
    await bed.app.services.history.sampleOnce();
    const text: string = (await api('/prometheus')).body;
    expect(text).toContain('# TYPE bullpen_job_processing_seconds summary\n');
    const p99 = new RegExp(
      `^bullpen_job_processing_seconds\\{queue="checkout-slow",connection="main",prefix="${bed.fixture.prefix}",quantile="0.99"\\} (\\S+)$`,
      'm',
    ).exec(text);
    expect(Number(p99?.[1])).toBeGreaterThanOrEqual(0.2);
    expect(Number(p99?.[1])).toBeLessThan(1);
    expect(text).not.toMatch(/bullpen_job_processing_seconds\{queue="elsewhere"/);
  });

  it('bullpen history shows the p95 processing and wait times beside the sparklines', async () => {
    const run = await runBullpen(['history', 'checkout-slow', '--since', '1h'], { env: { BULLPEN_URL: bed.app.url } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^p95 runtime\s+[▁-█ ]+\s+0\.\.\d+ms\s+last \d{3}ms$/m);
    expect(run.stdout).toMatch(/^p95 wait\s+[▁-█ ]+\s+0\.\.\S+\s+last \S+$/m);
    const idle = await runBullpen(['history', 'elsewhere', '--since', '1h'], { env: { BULLPEN_URL: bed.app.url } });
    expect(idle.stdout).toMatch(/^p95 runtime\s+.*last \d+ms$/m);
  });
});
