import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

// A window far longer than the test: totals counted once are served for the whole file.
// Tracking off: this file holds the counted path (stores without client-side tracking, clusters) to its window.
const bed = queueTestBed({ SERVICE_QUEUE_LIST_CACHE_MS: '600000', SERVICE_QUEUE_TOTALS_TRACKING: 'false' });
const list = (query: string) => request(`${bed.app.api}/c/main/queues?${query}`);

describe('GET /queues?totals=true within SERVICE_QUEUE_LIST_CACHE_MS', () => {
  it('serves the totals counted at totalsAt while the page and the state filter stay live', async () => {
    const busy = await bed.seeded('busy', { waiting: 2 });
    await bed.seeded('done', { completed: 1 });
    const before = Date.now();
    const first = await list('totals=true');
    expect(first.status).toBe(200);
    expect(first.body.totals).toMatchObject({ waiting: 2, completed: 1 });
    const countedAt = Date.parse(first.body.totalsAt);
    expect(countedAt).toBeGreaterThanOrEqual(before - 1);
    expect(countedAt).toBeLessThanOrEqual(Date.now());

    await busy.add('late', {});
    const second = await list('totals=true&state=idle&sort=waiting');
    // Totals as counted, with the same time; the state filter and the page's counts read now.
    expect(second.body).toMatchObject({ totals: first.body.totals, totalsAt: first.body.totalsAt, total: 1 });
    expect(second.body.queues.map((queue: { name: string }) => queue.name)).toEqual(['done']);
    const page = await list('totals=true&sort=waiting');
    expect(page.body.queues[0]).toMatchObject({ name: 'busy', jobCounts: { waiting: 3 } });
    expect(page.body.totals.waiting).toBe(2);
    expect((await list('')).body).not.toHaveProperty('totalsAt');
  });
});
