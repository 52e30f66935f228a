import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { queueUrl, waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';
import { listProblems } from './support/error-shape.js';
import { ExchangeLog } from './support/http-exchange.js';

describe('purge under concurrency', () => {
  const bed = queueTestBed();
  const { fixture, openQueue } = bed;
  const log = new ExchangeLog();

  const purge = (queueName: string, statuses: string[]) =>
    log.fetch(`${queueUrl(bed.app, fixture, queueName)}/purge`, {
      method: 'POST',
      body: { confirmName: queueName, statuses },
    });

  it('two purges of the same queue at once remove each job once, and only of the selected statuses', async () => {
    const queue = openQueue('twice');
    await queue.addBulk(Array.from({ length: 2500 }, (_, index) => ({ name: 'w', data: { index } })));
    await queue.addBulk(
      Array.from({ length: 300 }, (_, index) => ({ name: 'd', data: { index }, opts: { delay: 3_600_000 } })),
    );
    await queue.addBulk(
      Array.from({ length: 40 }, (_, index) => ({ name: 'p', data: { index }, opts: { priority: 5 } })),
    );
    const [first, second] = await Promise.all([
      purge('twice', ['waiting', 'delayed']),
      purge('twice', ['delayed', 'waiting', 'waiting']),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.totalRemoved + second.body.totalRemoved).toBe(2800);
    expect(first.body.removedByStatus.waiting + second.body.removedByStatus.waiting).toBe(2500);
    expect(first.body.removedByStatus.delayed + second.body.removedByStatus.delayed).toBe(300);
    expect(await queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({
      waiting: 0,
      delayed: 0,
      prioritized: 40,
    });
  });

  it('purging completed while workers add and process jobs removes only completed jobs, and the totals add up', async () => {
    const queueName = 'busy';
    const queue = openQueue(queueName);
    const worker = new Worker(
      queueName,
      async (job) => {
        if (job.data.fail) throw new Error('planned failure');
        return job.data.index;
      },
      { ...fixture.bullmq, concurrency: 8 },
    );
    let added = 0;
    let failing = 0;
    let producing = true;
    const producer = (async () => {
      while (producing) {
        const batch = Array.from({ length: 50 }, (_, offset) => ({
          name: 'job',
          data: { index: added + offset, fail: (added + offset) % 7 === 0 },
        }));
        failing += batch.filter((job) => job.data.fail).length;
        await queue.addBulk(batch);
        added += batch.length;
      }
    })();
    let removed = 0;
    for (let round = 0; round < 6; round++) {
      await waitFor(async () => (await queue.getCompletedCount()) > 0, 5000, 'completed jobs to purge');
      const results = await Promise.all([purge(queueName, ['completed']), purge(queueName, ['completed'])]);
      for (const result of results) {
        expect(result.status).toBe(200);
        expect(result.body.statusesPurged).toEqual(['completed']);
        removed += result.body.totalRemoved;
      }
    }
    producing = false;
    await producer;
    await waitFor(
      async () => {
        const counts = await queue.getJobCounts('waiting', 'active');
        return counts.waiting === 0 && counts.active === 0;
      },
      15_000,
      'the worker to drain the queue',
    );
    await worker.close();
    const counts = (await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed')) as Record<
      string,
      number
    >;
    expect(removed).toBeGreaterThan(0);
    // Failed jobs are never selected: every planned failure is still there.
    expect(counts.failed).toBe(failing);
    expect(counts.completed! + removed).toBe(added - failing);
    expect(counts.waiting! + counts.active! + counts.delayed!).toBe(0);
  });

  it('answered no 500 and every error in the error shape', () => {
    expect(log.exchanges.length).toBeGreaterThan(10);
    expect(listProblems(log.exchanges)).toEqual([]);
  });
});
