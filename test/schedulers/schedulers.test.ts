import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

describe('job schedulers', () => {
  const bed = queueTestBed();
  const { fixture, openQueue } = bed;
  let base: string;

  beforeAll(async () => {
    base = `${bed.app.api}/c/${fixture.connectionId}/scheduled-jobs`;
    await openQueue('reports').upsertJobScheduler(
      'nightly',
      { pattern: '0 3 * * *', tz: 'Europe/Paris' },
      { name: 'report', data: { format: 'pdf' }, opts: { attempts: 3 } },
    );
    await openQueue('reports').upsertJobScheduler('hourly', { every: 3_600_000 }, { name: 'rollup' });
    await openQueue('an odd/queue %').upsertJobScheduler('tick', { every: 60_000, limit: 10 }, { name: 'tick' });
  });

  it('lists schedulers created with BullMQ across queues, with their next run', async () => {
    const { status, body } = await request(base);
    expect(status).toBe(200);
    expect(body.total).toBe(3);
    expect(body.schedulers.map((s: any) => [s.queueName, s.id, s.name])).toEqual([
      ['an odd/queue %', 'tick', 'tick'],
      ['reports', 'hourly', 'rollup'],
      ['reports', 'nightly', 'report'],
    ]);
    const nightly = body.schedulers[2];
    expect(nightly).toMatchObject({
      pattern: '0 3 * * *',
      tz: 'Europe/Paris',
      prefix: fixture.prefix,
      template: { data: { format: 'pdf' }, opts: { attempts: 3 } },
    });
    // 03:00 in Paris is 01:00 or 02:00 UTC, and in the future.
    expect(new Date(nightly.next).getUTCHours()).toBeOneOf([1, 2]);
    expect(Date.parse(nightly.next)).toBeGreaterThan(Date.now());
    expect(body.schedulers[0]).toMatchObject({ every: 60_000, limit: 10 });
  });

  it('pages across queues', async () => {
    const first = await request(`${base}?page=1&pageSize=2`);
    const second = await request(`${base}?page=2&pageSize=2`);
    expect(first.body.schedulers.map((s: any) => s.id)).toEqual(['tick', 'hourly']);
    expect(first.body).toMatchObject({ total: 3, totalPages: 2, hasMore: true });
    expect(second.body.schedulers.map((s: any) => s.id)).toEqual(['nightly']);
    expect(second.body.hasMore).toBe(false);
    expect((await request(`${base}?pageSize=101`)).status).toBe(400);
  });

  it('lists one queue soonest first, and 404s an unknown queue', async () => {
    const { body } = await request(`${base}/queue/reports`);
    expect(body.schedulers.map((s: any) => s.id).sort()).toEqual(['hourly', 'nightly']);
    expect(Date.parse(body.schedulers[0].next)).toBeLessThanOrEqual(Date.parse(body.schedulers[1].next));
    const odd = await request(`${base}/queue/${encodeURIComponent('an odd/queue %')}`);
    expect(odd.body.schedulers.map((s: any) => s.id)).toEqual(['tick']);
    const missing = await request(`${base}/queue/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('creates through the API, reads it back, updates it, and BullMQ sees it', async () => {
    const created = await request(`${base}/queue/emails`, {
      method: 'POST',
      body: {
        schedulerId: 'digest',
        name: 'send-digest',
        data: { list: 'weekly' },
        schedule: { type: 'cron', pattern: '30 8 * * 1', timezone: 'America/New_York' },
        options: { attempts: 2 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'digest',
      queueName: 'emails',
      name: 'send-digest',
      pattern: '30 8 * * 1',
      tz: 'America/New_York',
      template: { data: { list: 'weekly' } },
    });
    expect(new Date(created.body.next).getUTCDay()).toBe(1);
    const native = await openQueue('emails').getJobScheduler('digest');
    expect(native).toMatchObject({ pattern: '30 8 * * 1', tz: 'America/New_York', name: 'send-digest' });

    const duplicate = await request(`${base}/queue/emails`, {
      method: 'POST',
      body: { schedulerId: 'digest', name: 'x', schedule: { type: 'every', everyMs: 1000 } },
    });
    expect(duplicate.status).toBe(409);

    const updated = await request(`${base}/queue/emails/digest`, {
      method: 'PUT',
      body: { name: 'send-digest', schedule: { type: 'every', everyMs: 120_000 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.every).toBe(120_000);
    expect(updated.body.pattern).toBeUndefined();
    expect((await request(`${base}/queue/emails/digest`)).body.every).toBe(120_000);

    const missing = await request(`${base}/queue/emails/nope`, {
      method: 'PUT',
      body: { name: 'x', schedule: { type: 'every', everyMs: 1000 } },
    });
    expect(missing.status).toBe(404);
  });

  it('works through tRPC too, with odd characters in the ids', async () => {
    const created = await bed.app.trpc.schedulers.create.mutate({
      connectionId: fixture.connectionId,
      queueName: 'an odd/queue %',
      schedulerId: 'job:with/odd id%',
      name: 'n',
      schedule: { type: 'every', everyMs: 30_000 },
    });
    expect(created.id).toBe('job:with/odd id%');
    const viaRest = await request(
      `${base}/queue/${encodeURIComponent('an odd/queue %')}/${encodeURIComponent('job:with/odd id%')}`,
    );
    expect(viaRest.body.id).toBe('job:with/odd id%');
    const deleted = await request(
      `${base}/queue/${encodeURIComponent('an odd/queue %')}/${encodeURIComponent('job:with/odd id%')}`,
      { method: 'DELETE' },
    );
    expect(deleted.body).toEqual({
      success: true,
      id: 'job:with/odd id%',
      deleted: true,
      schedulerId: 'job:with/odd id%',
    });
  });

  it.each([
    [{ type: 'cron', pattern: 'every monday' }, 'schedule.pattern'],
    [{ type: 'cron', pattern: '61 * * * *' }, 'schedule.pattern'],
    [{ type: 'cron', pattern: '0 * * * *', timezone: 'Mars/Olympus' }, 'schedule.timezone'],
    [{ type: 'cron' }, 'schedule.pattern'],
    [{ type: 'every' }, 'schedule.everyMs'],
    [{ type: 'every', everyMs: 1000, pattern: '* * * * *' }, 'schedule.pattern'],
    [
      { type: 'cron', pattern: '* * * * *', immediately: true, startDate: '2099-01-01T00:00:00Z' },
      'schedule.immediately',
    ],
    [{ type: 'weekly' }, 'schedule.type'],
  ])('refuses schedule %j with 400 naming %s, writing nothing', async (schedule, field) => {
    const { status, body } = await request(`${base}/queue/invalid`, {
      method: 'POST',
      body: { schedulerId: 'bad', name: 'x', schedule },
    });
    expect(status).toBe(400);
    expect(body.message).toContain(field);
    expect(await fixture.redis.exists(`${fixture.prefix}:invalid:meta`, `${fixture.prefix}:invalid:repeat`)).toBe(0);
  });

  it('deletes a scheduler (BullMQ no longer has it) and 404s a missing one', async () => {
    const deleted = await request(`${base}/queue/reports/hourly`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await openQueue('reports').getJobScheduler('hourly')).toBeUndefined();
    const again = await request(`${base}/queue/reports/hourly`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
    expect((await request(`${base}/queue/reports/hourly`)).status).toBe(404);
  });
});
