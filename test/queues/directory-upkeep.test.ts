import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

/**
 * With queue names cached for ten minutes, every path of the service that
 * creates or removes a queue shows in the list at once: the queue middleware
 * keeps the directory fresh, driven by each route's meta.queue.
 */
const bed = queueTestBed({ SERVICE_QUEUE_LIST_CACHE_MS: '600000' });
const api = () => bed.app.api;
const names = async () =>
  (await request(`${api()}/c/main/queues?pageSize=100`)).body.queues.map((queue: { name: string }) => queue.name);

describe('the queue-name directory', () => {
  it('shows queues created by adding a job or a scheduler, and drops obliterated and deleted ones, without a rescan', async () => {
    await bed.seeded('old', { completed: 1 });
    expect(await names()).toEqual(['old']);
    // Created behind the service's back: hidden by the cache (the scan is fresh).
    await bed.seeded('outside', { waiting: 1 });

    expect((await request(`${api()}/c/main/queues/by-job/jobs`, { method: 'POST', body: { name: 'x' } })).status).toBe(
      201,
    );
    const scheduler = { schedulerId: 's', name: 's', schedule: { type: 'every', everyMs: 60_000 } };
    expect(
      (await request(`${api()}/c/main/scheduled-jobs/queue/by-scheduler`, { method: 'POST', body: scheduler })).status,
    ).toBe(201);
    expect(await names()).toEqual(['by-job', 'by-scheduler', 'old']);

    expect(
      (await request(`${api()}/c/main/queues/by-job/obliterate`, { method: 'POST', body: { confirmName: 'by-job' } }))
        .status,
    ).toBe(200);
    expect(await names()).not.toContain('by-job');
    expect((await request(`${api()}/c/main/queues/old?confirmName=old`, { method: 'DELETE' })).status).toBe(200);
    expect(await names()).not.toContain('old');
  });
});
