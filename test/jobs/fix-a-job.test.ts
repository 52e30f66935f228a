import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('fixing a job: data, retry with data, duplicate, stack traces', () => {
  const bed = queueTestBed();
  const jobs = (queueName: string) => `${bed.app.api}/c/main/queues/${queueName}/jobs`;

  it('fixes the data of a failed job and its next attempt sees the new data', async () => {
    const queue = bed.openQueue('charges');
    const job = await queue.add('charge', { amount: -5 }, { attempts: 1 });
    const seen: unknown[] = [];
    const worker = new Worker(
      'charges',
      async (j) => {
        seen.push(j.data);
        if ((j.data as { amount: number }).amount < 0) throw new Error('negative amount');
      },
      bed.fixture.bullmq,
    );
    bed.closeLater(worker);
    await waitFor(
      async () => (await job.getState()) === 'failed' || (await queue.getJobState(job.id!)) === 'failed',
      10_000,
      'the first failure',
    );
    const patched = await request(`${jobs('charges')}/${job.id}`, { method: 'PATCH', body: { data: { amount: 5 } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: job.id, data: { amount: 5 } });
    const retried = await request(`${jobs('charges')}/retry`, { method: 'POST', body: { jobIds: [job.id] } });
    expect(retried.body.succeeded).toBe(1);
    await waitFor(() => seen.length === 2, 10_000, 'the second attempt');
    expect(seen).toEqual([{ amount: -5 }, { amount: 5 }]);
  });

  it('retries with replaced data in one call, and refuses data with the status form', async () => {
    const queue = await bed.seeded('invoices', { failed: 1 });
    const [failed] = await queue.getFailed();
    const retried = await request(`${jobs('invoices')}/retry`, {
      method: 'POST',
      body: { jobIds: [failed!.id], data: { fixed: true } },
    });
    expect(retried.body.succeeded).toBe(1);
    expect((await queue.getJob(failed!.id!))!.data).toEqual({ fixed: true });
    expect(
      (await request(`${jobs('invoices')}/retry`, { method: 'POST', body: { status: 'failed', all: true, data: {} } }))
        .status,
    ).toBe(400);
  });

  it('answers 409 JOB_ACTIVE while a worker holds the job, and leaves its data', async () => {
    const queue = bed.openQueue('slow');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker('slow', () => held, bed.fixture.bullmq);
    bed.closeLater(worker);
    const job = await queue.add('long', { v: 1 });
    await waitFor(async () => (await queue.getJobState(job.id!)) === 'active', 10_000, 'the job to be active');
    const refused = await request(`${jobs('slow')}/${job.id}`, { method: 'PATCH', body: { data: { v: 2 } } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('JOB_ACTIVE');
    expect((await queue.getJob(job.id!))!.data).toEqual({ v: 1 });
    release();
  });

  it('duplicates a job under a new id with its name and options, data replaced when given', async () => {
    const queue = bed.openQueue('mails');
    const original = await queue.add('welcome', { to: 'a' }, { attempts: 4, priority: 3 });
    const copy = await request(`${jobs('mails')}/${original.id}/duplicate`, {
      method: 'POST',
      body: { data: { to: 'b' } },
    });
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(original.id);
    const stored = (await queue.getJob(copy.body.id))!;
    expect([stored.name, stored.data, stored.opts.attempts, stored.opts.priority]).toEqual([
      'welcome',
      { to: 'b' },
      4,
      3,
    ]);
  });

  it('removes stack traces, keeping the newest given', async () => {
    const queue = bed.openQueue('traces');
    const job = await queue.add('t', {}, { attempts: 3, backoff: { type: 'fixed', delay: 0 } });
    let attempt = 0;
    const worker = new Worker(
      'traces',
      async () => {
        throw new Error(`attempt ${++attempt}`);
      },
      bed.fixture.bullmq,
    );
    bed.closeLater(worker);
    await waitFor(async () => (await queue.getJobState(job.id!)) === 'failed', 10_000, 'three failures');
    const cleared = await request(`${jobs('traces')}/${job.id}/stacktraces?keep=1`, { method: 'DELETE' });
    expect(cleared.body).toEqual({ success: true, id: job.id, removed: 2, kept: 1 });
    const traces = (await queue.getJob(job.id!))!.stacktrace ?? [];
    expect(traces).toHaveLength(1);
    expect(traces?.[0]).toMatch(/attempt 3/);
  });
});
