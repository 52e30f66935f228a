import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { commandsDuring } from '../helpers/command-count.js';
import { queueTestBed } from '../helpers/queues.js';

// A window far longer than the test: were totals served from a count (no tracking), the first one would be served throughout.
const bed = queueTestBed({ SERVICE_QUEUE_LIST_CACHE_MS: '600000' });
const list = (query: string) => request(`${bed.app.api}/c/main/queues?${query}`);

/** Lists with totals until they come from the tracked counts: a totalsAt of the request's own time, not an earlier count's. */
async function trackedList(query: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const asked = Date.now();
    const answer = await list(query);
    expect(answer.status).toBe(200);
    if (Date.parse(answer.body.totalsAt) >= asked) return answer;
    if (Date.now() > deadline) throw new Error('totals never came from the tracked counts');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /queues?totals=true kept exact by client-side tracking (SERVICE_QUEUE_TOTALS_TRACKING on by default)', () => {
  it('answers every change made by producers and real Workers at once, inside the counted-totals window', async () => {
    const orders = await bed.seeded('orders', { waiting: 2 });
    await bed.seeded('emails', { completed: 1, failed: 1 });
    const first = await list('totals=true');
    expect(first.body.totals).toMatchObject({ waiting: 2, completed: 1, failed: 1, delayed: 0 });
    // The second list (within the window) already reads the tracked counts, or will once they caught up.
    await trackedList('totals=true');

    await orders.add('late', {});
    await orders.add('later', {}, { delay: 3_600_000 });
    const added = await trackedList('totals=true');
    expect(added.body.totals).toMatchObject({ waiting: 3, delayed: 1, completed: 1, failed: 1 });

    let processed = 0;
    const worker = new Worker('orders', async () => 'ok', { ...bed.fixture.bullmq, concurrency: 5 });
    bed.closeLater(worker);
    await new Promise<void>((resolve) => worker.on('completed', () => ++processed === 3 && resolve()));
    const done = await trackedList('totals=true&state=idle');
    expect(done.body.totals).toMatchObject({ waiting: 0, active: 0, delayed: 1, completed: 4, failed: 1 });
  });

  it('drops an obliterated queue from the totals at once', async () => {
    // Added through the service, which puts a queue it creates in the index at once (the window holds off rescans).
    for (let i = 0; i < 4; i++)
      expect(
        (await request(`${bed.app.api}/c/main/queues/doomed/jobs`, { method: 'POST', body: { name: 'job', data: {} } }))
          .status,
      ).toBe(201);
    const before = (await trackedList('totals=true')).body.totals.waiting as number;
    const removed = await request(`${bed.app.api}/c/main/queues/doomed/obliterate`, {
      method: 'POST',
      body: { confirmName: 'doomed' },
    });
    expect(removed.status).toBe(200);
    expect((await trackedList('totals=true')).body.totals.waiting).toBe(before - 4);
  });

  it('decides idle and failing, and sorts by a count, from the tracked counts: one script call (for the page)', async () => {
    await bed.seeded('sort-a', { failed: 3 });
    await bed.seeded('sort-b', { failed: 1, waiting: 1 });
    await bed.seeded('sort-c', { failed: 2 });
    const store = bed.app.services.stores.handle((await bed.app.services.connections.find('main'))!);
    await bed.app.services.queueDirectory.rescan(store);
    await trackedList('totals=true');
    const names = (body: { queues: Array<{ name: string }> }) => body.queues.map((queue) => queue.name);
    let idle: Awaited<ReturnType<typeof list>> | undefined;
    const sent = await commandsDuring(
      store.client,
      async () => (idle = await list('totals=true&state=idle&sort=failed&search=sort-')),
    );
    expect(sent).toEqual(['evalsha']);
    expect(idle!.body).toMatchObject({ total: 2 });
    expect(names(idle!.body)).toEqual(['sort-a', 'sort-c']);
    const failing = await list('totals=true&state=failing&sort=failed&order=asc&search=sort-');
    expect(names(failing.body)).toEqual(['sort-b', 'sort-c', 'sort-a']);
    // Pages of a state, by count and by name (both picked by index from the tracked rows).
    const secondByCount = await list('totals=true&state=failing&sort=failed&search=sort-&pageSize=2&page=2');
    expect([names(secondByCount.body), secondByCount.body.total]).toEqual([['sort-b'], 3]);
    const secondByName = await list('totals=true&state=failing&sort=name&order=desc&search=sort-&pageSize=2&page=2');
    expect([names(secondByName.body), secondByName.body.total]).toEqual([['sort-a'], 3]);
    // paused/running are the meta hash's flag, not a count: still read from the store, and still right.
    expect((await list('totals=true&state=running&search=sort-')).body.total).toBe(3);
  });

  it('sorts by a count without totals from the tracked counts too: one script call (the page), changes seen at once', async () => {
    const x = await bed.seeded('bysort-x', { failed: 1 });
    await bed.seeded('bysort-y', { failed: 2 });
    const store = bed.app.services.stores.handle((await bed.app.services.connections.find('main'))!);
    await bed.app.services.queueDirectory.rescan(store);
    await trackedList('totals=true');
    const names = (body: { queues: Array<{ name: string }> }) => body.queues.map((queue) => queue.name);
    let sorted: Awaited<ReturnType<typeof list>> | undefined;
    const sent = await commandsDuring(store.client, async () => (sorted = await list('sort=failed&search=bysort-')));
    expect(sent).toEqual(['evalsha']);
    expect(sorted!.body).not.toHaveProperty('totals');
    expect(names(sorted!.body)).toEqual(['bysort-y', 'bysort-x']);
    // Written by another client (as a worker would): the tracker hears of it, the next sort reads it again.
    await store.client.zadd(x.keys.failed!, 1, 'extra-1', 2, 'extra-2');
    expect(names((await list('sort=failed&search=bysort-')).body)).toEqual(['bysort-x', 'bysort-y']);
  });
});
