import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';

/** Job schedulers on a PostgreSQL connection (BullMQ's scheduler table, written through its Queue API). */
const bed = postgresBed();
const base = () => `${bed.app.api}/c/main/scheduled-jobs`;

describe('job schedulers on PostgreSQL', () => {
  it('creates, lists, reads, updates and deletes a scheduler; creating one creates its queue', async () => {
    const created = await bed.call('POST', `${base()}/queue/reports`, {
      schedulerId: 'nightly',
      name: 'report',
      data: { kind: 'daily' },
      schedule: { type: 'cron', pattern: '0 3 * * *', timezone: 'Europe/Paris' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'nightly',
      queueName: 'reports',
      pattern: '0 3 * * *',
      tz: 'Europe/Paris',
    });
    await bed.call('POST', `${base()}/queue/reports`, {
      schedulerId: 'often',
      name: 'tick',
      schedule: { type: 'every', everyMs: 60_000 },
    });
    const listed = await bed.call('GET', `${base()}/queue/reports`);
    expect(listed.status).toBe(200);
    expect(listed.body.schedulers.map((scheduler: { id: string }) => scheduler.id).sort()).toEqual([
      'nightly',
      'often',
    ]);
    expect(listed.body.schedulers[0]).toMatchObject({ recentFailures: 0, lastFailedAt: null });
    expect((await bed.call('GET', `${base()}?pageSize=10`)).body.schedulers).toHaveLength(2);
    expect((await bed.call('GET', bed.queueUrl('reports'))).body.schedulersCount).toBe(2);
    const one = await bed.call('GET', `${base()}/queue/reports/nightly`);
    expect(one.body).toMatchObject({ id: 'nightly', template: { data: { kind: 'daily' } } });
    const updated = await bed.call('PUT', `${base()}/queue/reports/nightly`, {
      name: 'report',
      schedule: { type: 'every', everyMs: 120_000 },
    });
    expect(updated.body).toMatchObject({ id: 'nightly', every: 120_000 });
    expect((await bed.call('DELETE', `${base()}/queue/reports/often`, {})).body).toMatchObject({
      success: true,
      id: 'often',
    });
    expect((await bed.call('GET', `${base()}/queue/reports/often`)).status).toBe(404);
  });
});
