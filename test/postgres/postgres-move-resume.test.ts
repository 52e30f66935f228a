import { Worker, createPostgresBackend } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { moveJobIds, type MovePlan } from '../../routers/jobs/move-jobs.js';
import { moveAcrossStores, type MoveSource } from '../../server/bullmq/move-across-stores.js';
import { movesPerScript } from '../../server/bullmq/move-within-store.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { QueueStore } from '../../server/stores/queue-store.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import { mixedBed } from './support/mixed-bed.js';

/**
 * A move task between the kinds that dies between delivering to the target and releasing the
 * source (its release never reaches the store), then is resumed by the same mover after a worker
 * ran the copies and removed them (removeOnComplete): the target's journal says they were
 * delivered, so nothing is delivered or run twice and the source ends empty.
 */
const bed = mixedBed();
const store = async (id: string): Promise<QueueStore> =>
  bed.app.services.stores.handle((await bed.app.services.connections.find(id))!);

/** How the source's release goes: as it is, killed before it reaches the store, or after a worker took the jobs. */
type Release = 'runs' | 'dies' | ((orders: Parameters<MoveSource['release']>[0]) => Promise<void>);

async function planBetween(from: { id: string; queue: string }, to: { id: string; queue: string }, release: Release) {
  const [sourceStore, targetStore] = [await store(from.id), await store(to.id)];
  const sourceRef: QueueRef = { prefix: sourceStore.defaultPrefix, name: from.queue };
  const source = sourceStore.moveEnds().source(sourceRef);
  const target = targetStore.moveEnds().target(
    { prefix: targetStore.defaultPrefix, name: to.queue },
    {
      connectionId: from.id,
      ref: sourceRef,
    },
  );
  const released: MoveSource['release'] =
    release === 'runs'
      ? source.release
      : release === 'dies'
        ? () => Promise.reject(new Error('killed'))
        : async (orders) => {
            await release(orders);
            return source.release(orders);
          };
  const plan: MovePlan = {
    source: { ref: sourceRef, queue: await sourceStore.queue(from.queue), readOpts: source.readOpts },
    target: { ref: { prefix: targetStore.defaultPrefix, name: to.queue }, keepIds: false },
    callSize: movesPerScript,
    callsInFlight: 1,
    carry: (orders) =>
      moveAcrossStores({ source: { ...source, release: released }, target, mover: 'task-9', tallied: true }, orders),
  };
  return { plan, tally: () => target.tally('task-9') };
}

describe('a move between Redis and PostgreSQL killed between delivery and release, then resumed', () => {
  it('Redis → PostgreSQL: the copies a PostgreSQL worker ran and removed are not delivered again', async () => {
    const source = bed.redisQueue('far');
    const jobs = await source.addBulk(
      Array.from({ length: 40 }, (_, n) => ({ name: 'work', data: { n }, opts: { removeOnComplete: true } })),
    );
    const ids = jobs.map((job) => job.id!);
    const route = [
      { id: 'main', queue: 'far' },
      { id: 'pg', queue: 'far-pg' },
    ] as const;
    await expect(moveJobIds((await planBetween(...route, 'dies')).plan, ids)).rejects.toThrow('killed');
    expect(await source.getWaitingCount()).toBe(40);
    const ran: string[] = [];
    const worker = new Worker('far-pg', async (job) => void ran.push(job.id!), bed.pg.bullmq, createPostgresBackend);
    try {
      await waitFor(
        async () => ran.length === 40 && (await bed.pgQueue('far-pg').getJobCountByTypes('waiting', 'completed')) === 0,
        15_000,
        'the copies to run and be removed',
      );
      const resumed = await planBetween(...route, 'runs');
      expect((await moveJobIds(resumed.plan, ids)).every((result) => result.ok)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(ran).toHaveLength(40);
      expect(new Set(ran).size).toBe(40);
      expect(await source.getWaitingCount()).toBe(0);
      expect(await resumed.tally()).toBe(40);
    } finally {
      await worker.close();
    }
  });

  it('PostgreSQL → Redis: the source rows leave once, the Redis worker ran each copy once', async () => {
    const source = bed.pgQueue('near');
    const jobs = await source.addBulk(
      Array.from({ length: 40 }, (_, n) => ({ name: 'work', data: { n }, opts: { removeOnComplete: true } })),
    );
    const ids = jobs.map((job) => job.id!);
    const route = [
      { id: 'pg', queue: 'near' },
      { id: 'main', queue: 'near-redis' },
    ] as const;
    await expect(moveJobIds((await planBetween(...route, 'dies')).plan, ids)).rejects.toThrow('killed');
    expect(await source.getWaitingCount()).toBe(40);
    const ran: string[] = [];
    const worker = new Worker('near-redis', async (job) => void ran.push(job.id!), bed.redis.bullmq);
    try {
      await waitFor(() => ran.length === 40, 15_000, 'the copies to run');
      const resumed = await planBetween(...route, 'runs');
      expect((await moveJobIds(resumed.plan, ids)).every((result) => result.ok)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(new Set(ran).size).toBe(40);
      expect(ran).toHaveLength(40);
      expect(await resumed.tally()).toBe(40);
      const left = await queryDatabase<{ n: number }>(
        bed.pg.database.url,
        `SELECT COUNT(*)::int AS n FROM bullmq.job WHERE queue = 'near'`,
      );
      expect(left).toEqual([{ n: 0 }]);
    } finally {
      await worker.close();
    }
  });

  it('Redis → PostgreSQL: a source job a worker took between delivery and release stays; its copy is taken back', async () => {
    const source = bed.redisQueue('grabbed');
    const job = await source.add('work', { n: 1 });
    const route = [
      { id: 'main', queue: 'grabbed' },
      { id: 'pg', queue: 'grabbed-pg' },
    ] as const;
    const workerTakes = async () => {
      await bed.redis.redis.set(`${bed.redis.prefix}:grabbed:${job.id}:lock`, 'worker-token');
    };
    const { plan, tally } = await planBetween(...route, workerTakes);
    expect(await moveJobIds(plan, [job.id!])).toEqual([expect.objectContaining({ jobId: job.id, code: 'LOCKED' })]);
    expect(await bed.pgQueue('grabbed-pg').getJobCountByTypes('waiting', 'prioritized')).toBe(0);
    expect(await tally()).toBe(0);
    expect(await source.getJob(job.id!)).toBeDefined();
  });
});
