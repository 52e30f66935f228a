import { Worker, type Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture, seeded } = bed;

const purgeUrl = (name: string) => `${bed.app.api}/c/main/queues/${encodeURIComponent(name)}/purge`;
const purge = (name: string, body: unknown) => request(purgeUrl(name), { method: 'POST', body });
/** Counts read by BullMQ itself (and the legacy paused list, which BullMQ 6 no longer counts). */
const counts = async (queue: Queue): Promise<Record<string, number>> => ({
  ...(await queue.getJobCounts(
    'waiting',
    'active',
    'delayed',
    'completed',
    'failed',
    'prioritized',
    'waiting-children',
  )),
  paused: await fixture.redis.llen(`${fixture.prefix}:${queue.name}:paused`),
});

describe('purge input is checked before anything is removed', () => {
  let queue: Queue;
  let before: Record<string, number>;
  beforeAll(async () => {
    queue = await seeded('guarded', { completed: 3, failed: 2, waiting: 4, delayed: 1 });
    before = await counts(queue);
  });

  it.each([
    ['a confirmName that differs', { confirmName: 'Guarded', statuses: ['failed'] }, 'CONFIRMATION_MISMATCH'],
    ['a missing confirmName', { statuses: ['failed'] }, 'VALIDATION_FAILED'],
    ['empty statuses', { confirmName: 'guarded', statuses: [] }, 'VALIDATION_FAILED'],
    ['an unknown status', { confirmName: 'guarded', statuses: ['failed', 'stuck'] }, 'VALIDATION_FAILED'],
    ['statuses that are not a list', { confirmName: 'guarded', statuses: 'failed' }, 'VALIDATION_FAILED'],
  ])('answers 400 for %s and keeps every job', async (_case, body, code) => {
    const response = await purge('guarded', body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
    expect(await counts(queue)).toEqual(before);
  });

  it('answers 404 for a queue that does not exist, creating nothing', async () => {
    const response = await purge('ghost', { confirmName: 'ghost', statuses: ['all'] });
    expect(response.status).toBe(404);
    expect(await fixture.redis.exists(`${fixture.prefix}:ghost:meta`)).toBe(0);
  });
});

describe('purge', () => {
  it('de-duplicates statuses and purges only the one asked for', async () => {
    const queue = await seeded('dedupe', { completed: 3, failed: 2, waiting: 4, delayed: 1, prioritized: 2 });
    const failedIds = (await queue.getFailed()).map((job) => job.id).sort();
    const response = await purge('dedupe', { confirmName: 'dedupe', statuses: ['failed', 'failed'] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      queueName: 'dedupe',
      statusesPurged: ['failed'],
      totalRemoved: 2,
      removedByStatus: { failed: 2 },
      removedJobIdsSample: expect.any(Array),
    });
    expect([...response.body.removedJobIdsSample].sort()).toEqual(failedIds);
    expect(await counts(queue)).toMatchObject({ failed: 0, completed: 3, waiting: 4, delayed: 1, prioritized: 2 });
  });

  it('expands all with anything else to every status and keeps the queue', async () => {
    const queue = await seeded('everything', { completed: 3, failed: 2, waiting: 4, delayed: 1, prioritized: 2 });
    const response = await purge('everything', { confirmName: 'everything', statuses: ['waiting', 'all'] });
    expect(response.status).toBe(200);
    expect(response.body.statusesPurged).toEqual([
      'waiting',
      'active',
      'delayed',
      'completed',
      'failed',
      'paused',
      'prioritized',
    ]);
    expect(response.body.removedByStatus).toEqual({
      waiting: 4,
      active: 0,
      delayed: 1,
      completed: 3,
      failed: 2,
      paused: 0,
      prioritized: 2,
    });
    expect(response.body.totalRemoved).toBe(12);
    expect(Object.values(await counts(queue)).every((count) => count === 0)).toBe(true);
    const listed = await request(`${bed.app.api}/c/main/queues?search=everything`);
    expect(listed.body.queues.map((q: { name: string }) => q.name)).toEqual(['everything']);
  });

  it('empties more than 2,000 jobs of a status in several batches, exactly, leaving other statuses', async () => {
    const queue = await seeded('bulk', { completed: 1500, failed: 3, waiting: 2345, delayed: 2 });
    const waitingIds = new Set(await queue.getWaiting(0, -1).then((jobs) => jobs.map((job) => job.id!)));
    const waiting = await purge('bulk', { confirmName: 'bulk', statuses: ['waiting'] });
    expect(waiting.status).toBe(200);
    expect(waiting.body.removedByStatus).toEqual({ waiting: 2345 });
    expect(waiting.body.removedJobIdsSample).toHaveLength(100);
    expect(waiting.body.removedJobIdsSample.every((id: unknown) => typeof id === 'string' && waitingIds.has(id))).toBe(
      true,
    );
    expect(await counts(queue)).toMatchObject({ waiting: 0, completed: 1500, failed: 3, delayed: 2 });

    const completed = await purge('bulk', { confirmName: 'bulk', statuses: ['completed'] });
    expect(completed.body).toMatchObject({ totalRemoved: 1500, removedByStatus: { completed: 1500 } });
    expect(await counts(queue)).toMatchObject({ waiting: 0, completed: 0, failed: 3, delayed: 2 });
    // Removed jobs leave no hash behind.
    expect(await fixture.redis.exists(`${fixture.prefix}:bulk:${waiting.body.removedJobIdsSample[0]}`)).toBe(0);
  });

  it('purges prioritized jobs without touching waiting ones', async () => {
    const queue = await seeded('priorities', { waiting: 3, prioritized: 4 });
    const response = await purge('priorities', { confirmName: 'priorities', statuses: ['prioritized'] });
    expect(response.body.removedByStatus).toEqual({ prioritized: 4 });
    expect(await counts(queue)).toMatchObject({ waiting: 3, prioritized: 0 });
  });

  it('purges the paused list (where older BullMQ parked jobs) without touching waiting ones', async () => {
    const queue = await seeded('legacy-paused', { waiting: 5 });
    const waitKey = `${fixture.prefix}:legacy-paused:wait`;
    const pausedKey = `${fixture.prefix}:legacy-paused:paused`;
    for (let i = 0; i < 2; i += 1) await fixture.redis.lmove(waitKey, pausedKey, 'RIGHT', 'LEFT');
    const response = await purge('legacy-paused', { confirmName: 'legacy-paused', statuses: ['paused'] });
    expect(response.body.removedByStatus).toEqual({ paused: 2 });
    expect(await counts(queue)).toMatchObject({ waiting: 3, paused: 0 });
  });

  it('leaves an active job whose worker holds its lock (BullMQ clean skips it)', async () => {
    const queue = await seeded('busy-worker', { waiting: 1 });
    let finish!: () => void;
    const started = new Promise<void>((resolve) => {
      const worker = new Worker(
        'busy-worker',
        () => {
          resolve();
          return new Promise<void>((done) => (finish = done));
        },
        fixture.bullmq,
      );
      bed.closeLater(worker);
    });
    await started;
    const response = await purge('busy-worker', { confirmName: 'busy-worker', statuses: ['active'] });
    expect(response.body.removedByStatus).toEqual({ active: 0 });
    expect((await counts(queue)).active).toBe(1);
    finish();
  });

  it('logs one structured line saying who purged what', async () => {
    await seeded('audited', { failed: 2 });
    await purge('audited', { confirmName: 'audited', statuses: ['failed'] });
    const lines = bed.app.logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.event === 'queue.action' && line.queue === 'audited');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      action: 'queues.purge',
      outcome: 'done',
      connectionId: 'main',
      prefix: fixture.prefix,
      actor: { kind: 'authless', role: 'owner' },
      removed: { totalRemoved: 2, removedByStatus: { failed: 2 } },
    });
  });

  it('records one audit event carrying the counts, from the same middleware as the log line', async () => {
    await seeded('counted', { failed: 2, completed: 1 });
    await purge('counted', { confirmName: 'counted', statuses: ['failed'] });
    const audit = await request(`${bed.app.api}/audit?action=queues.purge`);
    const events = audit.body.events.filter((event: { queueName: string }) => event.queueName === 'counted');
    expect(events).toEqual([
      expect.objectContaining({
        action: 'queues.purge',
        outcome: 'success',
        connectionId: 'main',
        counts: { totalRemoved: 2, removedByStatus: { failed: 2 } },
      }),
    ]);
  });

  it('audits a purge stopped by a refused confirmation with no counts and logs no removal', async () => {
    await seeded('unconfirmed', { failed: 1 });
    expect((await purge('unconfirmed', { confirmName: 'other', statuses: ['failed'] })).status).toBe(400);
    const audit = await request(`${bed.app.api}/audit?action=queues.purge`);
    const events = audit.body.events.filter((event: { queueName: string }) => event.queueName === 'unconfirmed');
    expect(events).toEqual([
      expect.objectContaining({ outcome: 'failure', errorCode: 'CONFIRMATION_MISMATCH', counts: null }),
    ]);
    expect(
      bed.app.logs
        .map((line) => JSON.parse(line))
        .filter((line) => line.event === 'queue.action' && line.queue === 'unconfirmed'),
    ).toEqual([]);
  });

  it('gives the same result through the typed tRPC client', async () => {
    await seeded('typed', { failed: 1 });
    const result = await bed.app.trpc.queues.purge.mutate({
      connectionId: 'main',
      queueName: 'typed',
      confirmName: 'typed',
      statuses: ['failed'],
    });
    expect(result).toMatchObject({ success: true, totalRemoved: 1, statusesPurged: ['failed'] });
  });
});
