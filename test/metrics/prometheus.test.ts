import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeExpositions } from './support/merge-exposition.js';
import { families } from './support/exposition-families.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';
import { queueTestBed, seedQueue } from '../helpers/queues.js';

describe('mergeExpositions', () => {
  it('keeps one HELP/TYPE per family and groups its samples', () => {
    const queue = (name: string) =>
      `# HELP m help\n# TYPE m gauge\nm{queue="${name}"} 1\n# HELP n other\n# TYPE n counter\nn{queue="${name}"} 2`;
    expect(mergeExpositions([queue('a'), queue('b')])).toBe(
      '# HELP m help\n# TYPE m gauge\nm{queue="a"} 1\nm{queue="b"} 1\n# HELP n other\n# TYPE n counter\nn{queue="a"} 2\nn{queue="b"} 2\n',
    );
  });
});

describe('GET /api/prometheus', () => {
  const fixture = storeFixture();
  let app: TestApp;
  const queue = new Queue('mail "out"', fixture.bullmq);

  beforeAll(async () => {
    app = await bootApp({ env: { ...fixture.env, SERVICE_REDIS_URL_DOWN: 'redis://127.0.0.1:1' } });
    await queue.addBulk([
      { name: 'a', data: {} },
      { name: 'b', data: {} },
    ]);
  });
  afterAll(async () => {
    await queue.close();
    await app.close();
    await fixture.cleanup();
  });

  it('serves BullMQ job counts of every visible connection and store liveness as Prometheus text', async () => {
    const response = await fetch(`${app.api}/prometheus`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE bullmq_job_count gauge');
    expect(text).toContain(
      `bullmq_job_count{queue="mail \\"out\\"",state="waiting",connection="main",prefix="${fixture.prefix}"} 2`,
    );
    expect(text).toContain('bullpen_store_up{connection="main"} 1');
    expect(text).toContain('bullpen_store_up{connection="down"} 0');
    expect(text.match(/^# TYPE bullmq_job_count /gm)).toHaveLength(1);
  });

  it("includes Bullpen's own request counter and latency histogram by route and status", async () => {
    await request(`${app.api}/c/main/workers`);
    await request(`${app.api}/c/nope/workers`);
    const text = await (await fetch(`${app.api}/prometheus`)).text();
    expect(text).toContain('# TYPE bullpen_http_requests_total counter');
    expect(text).toMatch(
      /bullpen_http_requests_total\{method="GET",route="\/api\/c\/\{connectionId\}\/workers",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /bullpen_http_requests_total\{method="GET",route="\/api\/c\/\{connectionId\}\/workers",status="404"\} 1/,
    );
    expect(text).toContain('# TYPE bullpen_http_request_duration_seconds histogram');
    expect(text).toMatch(
      /bullpen_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/c\/\{connectionId\}\/workers",status="200"\} [1-9]/,
    );
  });
});

describe('GET /api/prometheus protection', () => {
  const fixture = storeFixture();
  const signedOutEnv = { ...fixture.env, SERVICE_AUTHLESS: 'false', AUTH_SECRET: 'x'.repeat(32) };
  afterAll(() => fixture.cleanup());

  it('is protected like the API: 401 without a session or token', async () => {
    const app = await bootApp({ env: signedOutEnv });
    try {
      const response = await request(`${app.api}/prometheus`);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    } finally {
      await app.close();
    }
  });

  it('answers anyone when SERVICE_METRICS_PUBLIC=true', async () => {
    const app = await bootApp({ env: { ...signedOutEnv, SERVICE_METRICS_PUBLIC: 'true' } });
    try {
      const response = await fetch(`${app.api}/prometheus`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('bullpen_store_up{connection="main"} 1');
    } finally {
      await app.close();
    }
  });
});

describe('the streamed exposition', () => {
  const fixture = storeFixture();
  let app: TestApp;
  const names = ['mail "out"', 'mail-in', 'billing'];
  const queues: Queue[] = [];

  beforeAll(async () => {
    queues.push(await seedQueue(fixture.bullmq, names[0]!, { completed: 3, failed: 2, waiting: 1 }));
    queues.push(await seedQueue(fixture.bullmq, names[1]!, { delayed: 2, prioritized: 1 }));
    queues.push(await seedQueue(fixture.bullmq, names[2]!, { waiting: 4 }));
    app = await bootApp({ env: fixture.env });
  });
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await app.close();
    await fixture.cleanup();
  });

  it("says what BullMQ's own per-queue export says, merged, family for family and sample for sample", async () => {
    const response = await fetch(`${app.api}/prometheus`);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const streamed = families(await response.text());
    const texts = await Promise.all(
      queues.map((queue) => queue.exportPrometheusMetrics({ connection: 'main', prefix: fixture.prefix })),
    );
    const expected = families(mergeExpositions(texts));
    for (const family of ['bullmq_job_count', 'bullmq_job_completed_total', 'bullmq_job_failed_total']) {
      expect(streamed[family], family).toEqual(expected[family]);
    }
    expect(streamed.bullmq_job_count!.samples).toHaveLength(names.length * 7);
  });

  it("says the same from the store's tracked counts once they caught up, and sees a write at once", async () => {
    const store = app.services.stores.handle((await app.services.connections.find(fixture.connectionId))!);
    const all = await app.services.queueDirectory.list(store);
    for (let tries = 0; !(await store.counts.totals(all)); tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const scrape = async () => families(await (await fetch(`${app.api}/prometheus`)).text());
    const texts = await Promise.all(
      queues.map((queue) => queue.exportPrometheusMetrics({ connection: 'main', prefix: fixture.prefix })),
    );
    const expected = families(mergeExpositions(texts));
    const tracked = await scrape();
    for (const family of ['bullmq_job_count', 'bullmq_job_completed_total', 'bullmq_job_failed_total'])
      expect(tracked[family], family).toEqual(expected[family]);
    const job = await queues[2]!.add('late', {});
    const waiting = (scraped: typeof tracked) =>
      scraped.bullmq_job_count!.samples.find((line) => line.includes('queue="billing"') && line.includes('"waiting"'));
    expect(waiting(await scrape())).toMatch(/ 5$/);
    await job.remove();
  });

  it('exports only the queues SERVICE_METRICS_QUEUES names (globs)', async () => {
    const limited = await bootApp({ env: { ...fixture.env, SERVICE_METRICS_QUEUES: 'mail*, bill?ng-none' } });
    try {
      const text = await (await fetch(`${limited.api}/prometheus`)).text();
      const exported = new Set(
        [...text.matchAll(/^bullmq_job_count\{queue="((?:[^"\\]|\\.)*)"/gm)].map((match) => match[1]),
      );
      expect([...exported].sort()).toEqual(['mail \\"out\\"', 'mail-in']);
    } finally {
      await limited.close();
    }
  });
});

describe('backlog and oldest waiting age in the scrape', () => {
  const bed = queueTestBed({ SERVICE_METRICS_PUBLIC: 'true' });

  it("exports each queue's backlog (wait + prioritized) and the age of its oldest waiting job", async () => {
    const queue = await bed.seeded('backlogged', { waiting: 3, prioritized: 2, completed: 1 });
    await bed.seeded('idle', { completed: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const text = await (await fetch(`${bed.app.api}/prometheus`)).text();
    const sample = (family: string, queueName: string) =>
      Number(new RegExp(`^${family}\\{queue="${queueName}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(text).toContain('# TYPE bullpen_queue_backlog gauge');
    expect(sample('bullpen_queue_backlog', 'backlogged')).toBe(5);
    expect(sample('bullpen_queue_backlog', 'idle')).toBe(0);
    expect(sample('bullpen_queue_oldest_waiting_seconds', 'backlogged')).toBeGreaterThanOrEqual(1);
    expect(sample('bullpen_queue_oldest_waiting_seconds', 'idle')).toBe(0);
    await queue.drain();
  });
});
