import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('steering a queue: global concurrency, global rate limit, a tripped limiter', () => {
  const bed = queueTestBed();
  const call = (method: string, queueName: string, path: string, body?: unknown) =>
    request(`${bed.app.api}/c/main/queues/${queueName}/${path}`, { method, ...(body === undefined ? {} : { body }) });

  it('a real Worker with concurrency 5 runs one job at a time under a global concurrency of 1', async () => {
    const queue = bed.openQueue('renders');
    await queue.add('warm', {});
    const set = await call('PUT', 'renders', 'global-concurrency', { concurrency: 1 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ globalConcurrency: 1, globalRateLimit: null, rateLimitedForMs: 0 });
    let running = 0;
    let most = 0;
    let done = 0;
    const worker = new Worker(
      'renders',
      async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 150));
        running--;
      },
      { ...bed.fixture.bullmq, concurrency: 5 },
    );
    bed.closeLater(worker);
    worker.on('completed', () => done++);
    await queue.addBulk(Array.from({ length: 5 }, (_, i) => ({ name: `r${i}`, data: {} })));
    await waitFor(() => done === 6, 15_000, 'six jobs');
    expect(most).toBe(1);
    expect((await call('DELETE', 'renders', 'global-concurrency')).body.globalConcurrency).toBeNull();
    expect((await request(`${bed.app.api}/c/main/queues/renders`)).body.meta.concurrency).toBeNull();
  });

  it('keeps a global rate limit, shows it in the queue detail, and removes it', async () => {
    await bed.seeded('mailer', { waiting: 1 });
    const set = await call('PUT', 'mailer', 'global-rate-limit', { max: 2, durationMs: 1000 });
    expect(set.body.globalRateLimit).toEqual({ max: 2, durationMs: 1000 });
    const detail = (await request(`${bed.app.api}/c/main/queues/mailer`)).body;
    expect(detail.meta).toMatchObject({ max: 2, duration: 1000 });
    expect((await call('DELETE', 'mailer', 'global-rate-limit')).body.globalRateLimit).toBeNull();
    expect((await call('PUT', 'mailer', 'global-rate-limit', { max: '2', durationMs: 1000 })).status).toBe(400);
  });

  it('clears a limiter a worker tripped, so a worker takes the job at once instead of after a minute', async () => {
    const queue = bed.openQueue('throttled');
    const tripping: Worker = new Worker(
      'throttled',
      async (): Promise<void> => {
        await tripping.rateLimit(60_000);
        throw Worker.RateLimitError();
      },
      bed.fixture.bullmq,
    );
    await queue.add('first', {});
    await waitFor(
      async () => (await request(`${bed.app.api}/c/main/queues/throttled`)).body.rateLimitedForMs > 50_000,
      10_000,
      'the limiter to trip',
    );
    await tripping.close(true);
    const cleared = await call('DELETE', 'throttled', 'rate-limit');
    expect(cleared.body.rateLimitedForMs).toBe(0);
    let ran = false;
    const fresh = new Worker(
      'throttled',
      async () => {
        ran = true;
      },
      bed.fixture.bullmq,
    );
    bed.closeLater(fresh);
    await waitFor(() => ran, 10_000, 'the job to run again');
  });
});
