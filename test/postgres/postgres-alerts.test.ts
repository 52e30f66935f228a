import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';
import { receiver } from '../alerts/support/alert-fixtures.js';
import { runPostgresWorker } from './support/run-worker.js';

const maxBytes = 1024 * 1024;
/** Alert rules evaluated on a PostgreSQL connection's history, and the response cap on its job reads. */
const bed = postgresBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5', SERVICE_MAX_RESPONSE_BYTES: String(maxBytes) });
const api = (path: string, method = 'GET', body?: unknown) => bed.call(method, `${bed.app.api}${path}`, body);

describe('alerts on PostgreSQL', () => {
  it('fires a failed_count rule from the samples of a PostgreSQL connection and delivers it', async () => {
    const hooks = receiver();
    try {
      const destination = await api('/alerts/destinations', 'POST', {
        type: 'webhook',
        name: 'ops hook',
        url: await hooks.start(),
      });
      const rule = await api('/c/main/alerts/rules', 'POST', {
        name: 'orders failing',
        type: 'failed_count',
        threshold: 3,
        windowMinutes: 1,
        queues: { include: ['orders*'], exclude: [] },
        destinationIds: [destination.body.id],
      });
      expect(rule.status).toBe(201);
      await bed.app.services.history.sampleOnce();
      const jobs = Array.from({ length: 3 }, (_, n) => ({ name: `o${n}`, data: {} }));
      await runPostgresWorker(bed, 'orders', jobs, async () => {
        throw new Error('card declined');
      });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await bed.app.services.history.sampleOnce();
      const firing = await api(`/c/main/alerts/events?state=firing&ruleId=${rule.body.id}`);
      expect(firing.body.events).toHaveLength(1);
      expect(firing.body.events[0]).toMatchObject({ queueName: 'orders', value: 3, threshold: 3, resolvedAt: null });
      expect(hooks.received).toHaveLength(1);
      expect(JSON.parse(hooks.received[0]!.body)).toMatchObject({
        state: 'firing',
        queueName: 'orders',
        connection: { id: 'main', name: 'main' },
      });
    } finally {
      await hooks.close();
    }
  });
});

describe('responses capped by SERVICE_MAX_RESPONSE_BYTES on PostgreSQL', () => {
  it('refuses a job over the cap with its size and its large fields, serves one under it whole', async () => {
    const queue = bed.fixture.queue('big-jobs');
    const data = { text: 'é🙂x'.repeat(200_000) };
    const big = await queue.add('big', data);
    const refused = await api(`/c/main/queues/big-jobs/jobs/${big.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      maxBytes,
      readInParts: expect.stringContaining('/fields/{field}'),
    });
    // jsonb keeps its own JSON text: `{"text": "…"}`, one byte more than JSON.stringify's.
    expect(refused.body.fieldBytes.data).toBe(Buffer.byteLength(JSON.stringify(data)) + 1);
    expect(Object.keys(refused.body.fieldBytes)).toEqual(['data']);
    const fits = await queue.add('fits', { text: 'a'.repeat(700_000) });
    const read = await api(`/c/main/queues/big-jobs/jobs/${fits.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.text).toHaveLength(700_000);
  });

  it('refuses a range of big log lines over the cap and names smaller ranges', async () => {
    const job = await bed.fixture.queue('big-logs').add('logged', {});
    for (let line = 0; line < 3; line++) await job.log('b'.repeat(500_000));
    const logs = `/c/main/queues/big-logs/jobs/${job.id}/logs`;
    const refused = await api(`${logs}?start=0&end=2`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      readInParts: expect.stringContaining('start and end'),
    });
    expect((await api(`${logs}?start=0&end=1`)).status).toBe(200);
  });
});
