import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';
import { fillPath, isQueueScoped, permissionedRoutes, type RouteInfo } from '../helpers/routes.js';

const bed = queueTestBed();
const { fixture } = bed;
const call = (method: string, path: string, body?: unknown) => request(`${bed.app.api}${path}`, { method, body });

/**
 * A queue named `legacy:<tail>` as an older producer wrote it. BullMQ 6 refuses
 * ':' in names, but its keys are `<prefix>:legacy:<tail>:…`, exactly what a
 * Queue named `<tail>` under the prefix `<prefix>:legacy` writes.
 */
async function legacyQueue(tail: string) {
  const options = { ...fixture.bullmq, prefix: `${fixture.prefix}:legacy` };
  const queue = new Queue(tail, options);
  bed.closeLater(queue);
  const worker = new Worker(
    tail,
    async (job) => {
      if (job.data.fail) throw new Error('refused');
      return 'ok';
    },
    options,
  );
  const [failed] = await queue.addBulk([
    { name: 'bad', data: { fail: true } },
    { name: 'good', data: {} },
  ]);
  await waitFor(async () => (await queue.getJobCountByTypes('failed', 'completed')) === 2, 10_000, 'jobs to settle');
  await worker.close();
  const waiting = await queue.add('waiting', {});
  const delayed = await queue.add('later', {}, { delay: 3_600_000 });
  await queue.upsertJobScheduler('tick', { every: 60_000 }, { name: 'tick' });
  return { name: `legacy:${tail}`, ids: { failed: failed!.id!, waiting: waiting.id!, delayed: delayed.id! } };
}

type Seeded = Awaited<ReturnType<typeof legacyQueue>>;

/** A valid request for each acting route, on the seeded queue. */
function bodyOf(route: RouteInfo, { name, ids }: Seeded): unknown {
  const bodies: Record<string, unknown> = {
    'queues.clean': { status: 'failed' },
    'queues.purge': { confirmName: name, statuses: ['all'] },
    'queues.obliterate': { confirmName: name },
    'queues.delete': { confirmName: name },
    'jobs.add': { name: 'added' },
    'jobs.retry': { jobIds: [ids.failed] },
    'jobs.remove': { jobIds: [ids.waiting] },
    'jobs.invoke': { jobIds: [ids.delayed] },
    'schedulers.create': { schedulerId: 'tock', name: 'tock', schedule: { type: 'every', everyMs: 60_000 } },
    'schedulers.update': { name: 'tick', schedule: { type: 'every', everyMs: 30_000 } },
    'jobs.move': { to: { queueName: 'moved-from-legacy' }, jobIds: [ids.failed] },
    'jobs.updateData': { data: { fixed: true } },
    'queues.setGlobalConcurrency': { concurrency: 2 },
    'queues.setGlobalRateLimit': { max: 10, durationMs: 1000 },
  };
  return bodies[route.procedure] ?? (['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined);
}

const queueRoutes = permissionedRoutes().filter(isQueueScoped);

describe('queues whose names hold ":" (written by older clients)', () => {
  it.each(queueRoutes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    '%s works on one',
    async (_name, route, index) => {
      const seeded = await legacyQueue(`q${index}`);
      const query = { 'jobs.list': '?status=failed', 'jobs.search': '?q=bad' }[route.procedure] ?? '';
      const path =
        fillPath(route.path, {
          connectionId: 'main',
          queueName: seeded.name,
          jobId: seeded.ids.failed,
          schedulerId: 'tick',
          field: 'data',
        }) + query;
      const response = await call(route.method, path, bodyOf(route, seeded));
      // DELETE of a queue that still holds jobs is refused as for any queue; everything else succeeds.
      const expected =
        route.procedure === 'queues.delete'
          ? 409
          : ['jobs.add', 'schedulers.create', 'jobs.duplicate'].includes(route.procedure)
            ? 201
            : 200;
      expect([response.status, response.body.code]).toEqual([
        expected,
        expected === 409 ? 'QUEUE_NOT_EMPTY' : undefined,
      ]);
    },
  );

  it('reads what the queue holds, by the name it is listed under', async () => {
    const seeded = await legacyQueue('mail');
    const listed = await call('GET', '/c/main/queues?search=legacy%3Amail');
    expect(listed.body.queues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'legacy:mail',
          jobCounts: expect.objectContaining({ failed: 1, completed: 1, waiting: 2, delayed: 1 }),
        }),
      ]),
    );
    const failed = await call('GET', `/c/main/queues/${encodeURIComponent(seeded.name)}/jobs?status=failed`);
    expect(failed.body.jobs.map((job: { id: string }) => job.id)).toEqual([seeded.ids.failed]);
    const job = await call('GET', `/c/main/queues/${encodeURIComponent(seeded.name)}/jobs/${seeded.ids.failed}`);
    expect(job.body).toMatchObject({ id: seeded.ids.failed, state: 'failed', failedReason: 'refused' });
    const schedulers = await call('GET', `/c/main/scheduled-jobs/queue/${encodeURIComponent(seeded.name)}`);
    expect(schedulers.body.schedulers).toEqual([expect.objectContaining({ id: 'tick', queueName: 'legacy:mail' })]);
  });

  it.each(
    ['/c/main/queues', '/c/main/scheduled-jobs', '/c/main/metrics', '/c/main/workers', '/prometheus'].map(
      (path, index) => [path, index] as const,
    ),
  )('leaves %s readable (200)', async (path, index) => {
    await legacyQueue(`listed${index}`);
    expect((await call('GET', path)).status).toBe(200);
  });

  it.each([
    ['adding a job', '/c/main/queues/new%3Aqueue/jobs', { name: 'x' }],
    [
      'creating a scheduler',
      '/c/main/scheduled-jobs/queue/new%3Aqueue',
      { schedulerId: 's', name: 'x', schedule: { type: 'every', everyMs: 1000 } },
    ],
  ])('refuses %s that would create one: 400 UNSUPPORTED_QUEUE_NAME, nothing written', async (_what, path, body) => {
    const response = await call('POST', path, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'UNSUPPORTED_QUEUE_NAME',
      queueName: 'new:queue',
      message: expect.stringContaining('":"'),
    });
    expect(await fixture.redis.keys(`${fixture.prefix}:new:queue:*`)).toEqual([]);
  });
});
