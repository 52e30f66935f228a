import { Worker, createPostgresBackend } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';

/** Workers and queue metrics on a PostgreSQL connection: BullMQ names each worker's LISTEN session after its queue. */
const bed = postgresBed();

describe('workers and queue metrics on PostgreSQL', () => {
  it('lists running workers by queue, counts them in the detail and the queue metrics', async () => {
    await bed.fixture.seed('busy', { completed: 2, failed: 1, waiting: 0 });
    const workers = ['alpha', 'beta'].map(
      (name) => new Worker('busy', async () => 'ok', { ...bed.fixture.bullmq, name }, createPostgresBackend),
    );
    try {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
      let listed: { status: number; body: any } = { status: 0, body: {} };
      for (let tries = 0; tries < 50; tries++) {
        listed = await bed.call('GET', `${bed.app.api}/c/main/workers`);
        if (listed.body.byQueue?.busy === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(listed.status).toBe(200);
      expect(listed.body.byQueue).toEqual({ busy: 2 });
      expect(listed.body.workers.map((worker: { name: string }) => worker.name).sort()).toEqual(['alpha', 'beta']);
      expect(listed.body.workers[0]).toMatchObject({
        queueName: 'busy',
        prefix: 'bullmq',
        clientName: expect.stringMatching(/^busy:w:/),
      });
      expect((await bed.call('GET', bed.queueUrl('busy'))).body.workers.count).toBe(2);
      const metrics = await bed.call('GET', bed.queueUrl('busy', '/metrics'));
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatchObject({ queueName: 'busy', prefix: 'bullmq' });
      expect(metrics.body.state).toMatchObject({ workers: 2 });
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });

  it('answers connection metrics: every queue summarized, totals, and the server as the store', async () => {
    await bed.fixture.seed('quiet', { waiting: 2, delayed: 1 });
    const metrics = await bed.call('GET', `${bed.app.api}/c/main/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatchObject({
      connectionId: 'main',
      queueCount: 2,
      totals: { waiting: 2, delayed: 1, completed: 2, failed: 1 },
    });
    expect(metrics.body.queues.map((queue: { queueName: string }) => queue.queueName)).toEqual(['busy', 'quiet']);
    expect(metrics.body.store).toMatchObject({
      mode: 'standalone',
      nodes: 1,
      version: expect.stringMatching(/^\d+/),
      usedMemoryBytes: null,
    });
    expect(metrics.body.store.connectedClients).toBeGreaterThan(0);
  });
});
