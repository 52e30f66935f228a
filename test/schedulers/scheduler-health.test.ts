import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('scheduler health: recent failures and the last failure', () => {
  const bed = queueTestBed();

  it('counts the failed jobs a scheduler produced, and leaves a healthy one at zero', async () => {
    const queue = bed.openQueue('reports');
    await queue.upsertJobScheduler('hourly-report', { every: 150 }, { name: 'report', data: { kind: 'hourly' } });
    await queue.upsertJobScheduler('nightly-export', { pattern: '0 3 * * *', tz: 'UTC' }, { name: 'export' });
    let failures = 0;
    const worker = new Worker(
      'reports',
      async (job) => {
        if (job.name === 'report') throw new Error('report service down');
      },
      bed.fixture.bullmq,
    );
    worker.on('failed', () => failures++);
    bed.closeLater(worker);
    await waitFor(() => failures >= 3, 15_000, 'three failed reports');
    await worker.close();

    const listed = await request(`${bed.app.api}/c/main/scheduled-jobs/queue/reports`);
    const byId = Object.fromEntries(listed.body.schedulers.map((s: { id: string }) => [s.id, s]));
    expect(byId['hourly-report'].recentFailures).toBeGreaterThanOrEqual(3);
    expect(Date.parse(byId['hourly-report'].lastFailedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(byId['nightly-export']).toMatchObject({ recentFailures: 0, lastFailedAt: null });

    const one = await request(`${bed.app.api}/c/main/scheduled-jobs/queue/reports/hourly-report`);
    expect(one.body.recentFailures).toBe(byId['hourly-report'].recentFailures);
    const all = await request(`${bed.app.api}/c/main/scheduled-jobs`);
    expect(all.body.schedulers.find((s: { id: string }) => s.id === 'hourly-report').recentFailures).toBe(
      byId['hourly-report'].recentFailures,
    );
  });
});
