import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

const sum = (points: Array<Record<string, unknown>>, field: string) =>
  points.reduce((total, point) => total + Number(point[field]), 0);

describe('history: sampled queue and connection figures', () => {
  const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });
  const history = (path: string) => request(`${bed.app.api}/c/main${path}`);

  it('records counts, finished-since, oldest waiting age and workers, and answers them oldest first', async () => {
    await bed.seeded('emails', { completed: 3, failed: 2, waiting: 4 });
    const worker = new Worker('idle-consumer', async () => 'ok', bed.fixture.bullmq);
    bed.closeLater(worker);
    await worker.waitUntilReady();
    await bed.openQueue('idle-consumer').add('x', {}, { delay: 3_600_000 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await bed.app.services.history.sampleOnce();

    const from = new Date(Date.now() - 300_000).toISOString();
    const emails = await history(`/queues/emails/history?points=500&from=${from}`);
    expect(emails.status).toBe(200);
    expect(emails.body.stepSeconds).toBe(5);
    expect(emails.body.points).toHaveLength(1);
    expect(emails.body.points[0]).toMatchObject({
      waiting: 4,
      failed: 2,
      completed: 3,
      completedDelta: 3,
      failedDelta: 2,
      active: 0,
      paused: false,
      workers: 0,
    });
    expect(emails.body.points[0].oldestWaitingSeconds).toBeGreaterThanOrEqual(1);

    const consumer = await history('/queues/idle-consumer/history');
    expect(consumer.body.points[0]).toMatchObject({ delayed: 1, waiting: 0, workers: 1, oldestWaitingSeconds: 0 });

    const connection = await history('/history');
    expect(connection.status).toBe(200);
    expect(connection.body.points[0]).toMatchObject({
      queues: 2,
      waiting: 4,
      failed: 2,
      delayed: 1,
      workers: 1,
      up: true,
      paused: 0,
    });
    expect(connection.body.points[0].usedMemory).toBeGreaterThan(0);
  });

  it('counts only what finished since the previous sample', async () => {
    const queue = await bed.seeded('reports', { failed: 2 });
    await bed.app.services.history.sampleOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const worker = new Worker(
      'reports',
      async () => {
        throw new Error('down');
      },
      bed.fixture.bullmq,
    );
    bed.closeLater(worker);
    const failedTwice = new Promise<void>((resolve) => {
      let n = 0;
      worker.on('failed', () => ++n === 3 && resolve());
    });
    await queue.addBulk([1, 2, 3].map((i) => ({ name: `r${i}`, data: {} })));
    await failedTwice;
    await bed.app.services.history.sampleOnce();

    const reports = await history('/queues/reports/history?points=500');
    expect(sum(reports.body.points, 'failedDelta')).toBe(5);
    expect(reports.body.points.at(-1).failed).toBe(5);
  });

  it('keeps answering for a removed queue, and 404s a queue with neither samples nor keys', async () => {
    const queue = await bed.seeded('gone-soon', { waiting: 2 });
    await bed.app.services.history.sampleOnce();
    await queue.obliterate({ force: true });
    const gone = await history('/queues/gone-soon/history');
    expect(gone.status).toBe(200);
    expect(gone.body.points.at(-1).waiting).toBe(2);
    const never = await history('/queues/never-existed/history');
    expect(never.status).toBe(404);
    expect(never.body.code).toBe('NOT_FOUND');
  });

  it('answers an existing queue without samples with no points', async () => {
    await bed.seeded('fresh', { waiting: 1 });
    const fresh = await history('/queues/fresh/history');
    expect(fresh.status).toBe(200);
    expect(fresh.body.points).toEqual([]);
  });

  it('refuses a reversed range and more than 500 points', async () => {
    const reversed = await history('/history?from=2026-11-23T10:00:00Z&to=2026-11-23T09:00:00Z');
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toMatch(/from/);
    expect((await history('/history?points=501')).status).toBe(400);
    expect((await history('/history?from=yesterday')).status).toBe(400);
  });
});
