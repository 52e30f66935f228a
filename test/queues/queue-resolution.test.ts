import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';
import { bodyFor, fillPath, isQueueScoped, permissionedRoutes } from '../helpers/routes.js';

/** Two prefixes on one connection: the default rule picks the first one the queue exists under. */
const bed = queueTestBed();
const { fixture } = bed;
const second = `${fixture.prefix}-b`;
bed.fixture.env.SERVICE_REDIS_URL_MAIN_PREFIX = `${fixture.prefix},${second}`;

const queueRoutes = permissionedRoutes().filter(isQueueScoped);
const call = (method: string, path: string, body?: unknown) =>
  request(`${bed.app.api}${path}`, { method, body: body ?? bodyFor(method) });

describe('every route under a queue', () => {
  it('is found from the router (so new routes are covered) and includes the expected families', () => {
    const procedures = queueRoutes.map((route) => route.procedure);
    expect(procedures).toEqual(
      expect.arrayContaining([
        'queues.get',
        'queues.purge',
        'jobs.list',
        'jobs.search',
        'jobs.tree',
        'jobs.retry',
        'metrics.queue',
        'schedulers.listForQueue',
      ]),
    );
    expect(
      queueRoutes
        .filter((route) => route.queueUse === 'create')
        .map((route) => route.procedure)
        .sort(),
    ).toEqual(['jobs.add', 'schedulers.create']);
  });

  it.each(
    queueRoutes
      .filter((route) => route.queueUse !== 'create')
      .map((route) => [`${route.method} ${route.path}`, route] as const),
  )('%s answers 404 NOT_FOUND for a missing queue and creates nothing', async (_name, route) => {
    const response = await call(route.method, fillPath(route.path, { connectionId: 'main', queueName: 'nowhere' }));
    expect([response.status, response.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(response.body.message).toContain('Queue "nowhere" was not found');
    expect(await fixture.redis.keys(`${fixture.prefix}*:nowhere:*`)).toEqual([]);
  });
});

describe('the prefix of a queue route', () => {
  it('defaults to the first prefix under which the queue exists', async () => {
    const queue = new Queue('only-b', { ...fixture.bullmq, prefix: second });
    bed.closeLater(queue);
    await queue.add('one', {});
    const response = await call('GET', '/c/main/queues/only-b/jobs?status=waiting');
    expect(response.status).toBe(200);
    expect(response.body.jobs).toHaveLength(1);
    expect((await call('GET', `/c/main/queues/only-b?prefix=${encodeURIComponent(fixture.prefix)}`)).status).toBe(404);
  });

  it('refuses an empty ?prefix= (the REST adapter would drop it and act on the default prefix)', async () => {
    const queue = new Queue('kept-scheduler', fixture.bullmq);
    bed.closeLater(queue);
    await queue.upsertJobScheduler('tick', { every: 60_000 }, { name: 'tick' });
    const response = await call('DELETE', '/c/main/scheduled-jobs/queue/kept-scheduler/tick?prefix=');
    expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(response.body.message).toContain('prefix');
    expect(await queue.getJobScheduler('tick')).toBeDefined();
  });

  it("must be one of the connection's prefixes (400 naming it)", async () => {
    const response = await call('GET', '/c/main/queues/only-b/jobs?status=waiting&prefix=elsewhere');
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('prefix');
  });
});

describe('routes that create a queue as a producer does', () => {
  it("adds a job to a new queue: 201, under the connection's first prefix, listed at once", async () => {
    const added = await call('POST', '/c/main/queues/brand-new/jobs', { name: 'first' });
    expect(added.status).toBe(201);
    expect(await fixture.redis.exists(`${fixture.prefix}:brand-new:meta`)).toBe(1);
    const listed = await call('GET', '/c/main/queues?search=brand-new');
    expect(listed.body.queues).toEqual([expect.objectContaining({ name: 'brand-new', prefix: fixture.prefix })]);
  });

  it('creates a scheduler on a new queue: 201 and the queue exists', async () => {
    const created = await call('POST', '/c/main/scheduled-jobs/queue/sched-new', {
      schedulerId: 'tick',
      name: 'tick',
      schedule: { type: 'every', everyMs: 60_000 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'tick', queueName: 'sched-new', prefix: fixture.prefix });
    expect(await fixture.redis.exists(`${fixture.prefix}:sched-new:meta`)).toBe(1);
  });

  it('adds to the prefix where the queue already exists', async () => {
    const queue = new Queue('b-producer', { ...fixture.bullmq, prefix: second });
    bed.closeLater(queue);
    await queue.add('seed', {});
    expect((await call('POST', '/c/main/queues/b-producer/jobs', { name: 'more' })).status).toBe(201);
    expect(await queue.getWaitingCount()).toBe(2);
    expect(await fixture.redis.exists(`${fixture.prefix}:b-producer:meta`)).toBe(0);
  });
});
