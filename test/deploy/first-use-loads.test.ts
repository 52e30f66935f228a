import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledServiceEntry } from '../helpers/compiled-service.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/process.js';
import { storeFixture } from '../helpers/stores.js';

/**
 * BullMQ and cron-parser are imported by the first request that needs them (lazy-packages.test.ts
 * holds the bundle to that): in a fresh compiled process, that first request must answer as any later
 * one does, with BullMQ's decoding of the job's options and cron schedules read.
 */
describe('the compiled service, first requests that load BullMQ and cron-parser', () => {
  const fixture = storeFixture();
  let service: ServiceProcess;
  let api: string;

  beforeAll(async () => {
    const queue = new Queue('orders', fixture.bullmq);
    await queue.add('charge', { order: 7 }, { jobId: 'order-41', attempts: 3, keepLogs: 5, removeOnFail: 10 });
    await queue.upsertJobScheduler('nightly', { pattern: '0 3 * * *', tz: 'UTC' }, { name: 'report' });
    await queue.close();
    service = startServiceProcess(
      { ...fixture.env, PORT: '0', HOST: '127.0.0.1', SERVICE_EMBEDDED_DIR: `/tmp/bullpen-first-use-${process.pid}` },
      { entry: await compiledServiceEntry() },
    );
    const listening = await service.waitForOutput(/"url":"http:\/\/127\.0\.0\.1:\d+"/);
    api = `${/http:\/\/127\.0\.0\.1:\d+/.exec(listening)![0]}/api/c/${fixture.connectionId}`;
  }, 60_000);

  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await fixture.cleanup();
  });

  it("answers a job's detail with its options decoded by BullMQ (short names spelled out)", async () => {
    const response = await fetch(`${api}/queues/orders/jobs/order-41`);
    expect(response.status).toBe(200);
    const job = (await response.json()) as { data: unknown; opts: Record<string, unknown> };
    expect(job.data).toEqual({ order: 7 });
    expect(job.opts).toMatchObject({ attempts: 3, keepLogs: 5, removeOnFail: 10 });
    expect(job.opts).not.toHaveProperty('kl');
  });

  it('lists a cron scheduler with its health (its latest runs computed by cron-parser)', async () => {
    const response = await fetch(`${api}/scheduled-jobs/queue/orders`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      schedulers: Array<{ id: string; pattern?: string; recentFailures: number }>;
    };
    expect(body.schedulers).toEqual([
      expect.objectContaining({ id: 'nightly', pattern: '0 3 * * *', recentFailures: 0 }),
    ]);
  });

  it('refuses an invalid cron pattern with a 400 naming the field, through the lazily loaded parser', async () => {
    const response = await fetch(`${api}/scheduled-jobs/queue/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedulerId: 'broken',
        name: 'report',
        schedule: { type: 'cron', pattern: 'not a cron' },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/schedule\.pattern/);
    const listed = (await (await fetch(`${api}/scheduled-jobs/queue/orders`)).json()) as {
      schedulers: Array<{ id: string }>;
    };
    expect(listed.schedulers.map((scheduler) => scheduler.id)).toEqual(['nightly']);
  });
});
