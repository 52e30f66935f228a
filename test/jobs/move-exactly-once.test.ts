import { type Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { moveJobIds, moveStatusBatch, movedJobId, type MovePlan } from '../../routers/jobs/move-jobs.js';
import { optionsPerRead } from '../../routers/jobs/options-ahead.js';
import { moveAcrossStores } from '../../server/bullmq/move-across-stores.js';
import { moveJournalKey, redisMoveSource, redisMoveTarget } from '../../server/bullmq/redis-move-ends.js';
import {
  moveCallsInFlight,
  moveTallyKey,
  moveWithinStore,
  movesPerScript,
} from '../../server/bullmq/move-within-store.js';
import { readJobOpts } from '../../server/bullmq/read-job-opts.js';
import { waitFor } from '../helpers/jobs.js';
import { logReads, moveBed } from './support/move-bed.js';

const { fixture, opened, queue, ref } = moveBed();
/** Across stores a plan carries one call at a time (as planMove makes it). */
const acrossCalls = { callSize: movesPerScript, callsInFlight: 1 };

/** A move within the fixture's store, as a task `mover` runs it. */
function withinPlan(from: Queue, to: string, mover = ''): MovePlan {
  return {
    source: { ref: ref(from.name), queue: from, readOpts: (ids) => readJobOpts(fixture.redis, ref(from.name), ids) },
    target: { ref: ref(to), keepIds: false },
    callSize: movesPerScript,
    callsInFlight: moveCallsInFlight,
    carry: (orders) =>
      moveWithinStore(fixture.redis, ref(from.name), ref(to), orders, mover && moveTallyKey(ref(to), mover)),
  };
}

describe('a move within one store: copy and removal in one step', () => {
  it('keeps name, data, options, creation time, attempts made, logs and priority; drops delay and the old id', async () => {
    const source = queue('keep');
    const job = await source.add(
      'invoice',
      { n: 7 },
      {
        attempts: 5,
        backoff: { type: 'fixed', delay: 10 },
        removeOnComplete: true,
        delay: 60_000,
        timestamp: 1_700_000_000_000,
      },
    );
    await job.log('first try');
    await fixture.redis.hset(`${fixture.prefix}:keep:${job.id}`, 'atm', 2, 'ats', 2);
    const urgent = await source.add('urgent', {}, { priority: 3 });
    const results = await moveJobIds(withinPlan(source, 'keep-retry'), [job.id!, urgent.id!]);
    expect(results).toEqual([
      { jobId: job.id, ok: true },
      { jobId: urgent.id, ok: true },
    ]);
    const moved = (await queue('keep-retry').getJob(movedJobId('keep', job.id!)))!;
    expect(moved).toMatchObject({ name: 'invoice', data: { n: 7 }, timestamp: 1_700_000_000_000, attemptsMade: 2 });
    expect(moved.opts).toMatchObject({ attempts: 5, backoff: { type: 'fixed', delay: 10 }, removeOnComplete: true });
    expect(moved.opts.delay ?? 0).toBe(0);
    expect(await moved.getState()).toBe('waiting');
    expect((await queue('keep-retry').getJobLogs(moved.id!)).logs).toEqual(['first try']);
    expect(await queue('keep-retry').getJobState(movedJobId('keep', urgent.id!))).toBe('prioritized');
    expect(await source.getJob(job.id!)).toBeUndefined();
    expect(await fixture.redis.exists(`${fixture.prefix}:keep:${job.id}:logs`)).toBe(0);
  });

  it('answers each job its own verdict, in order, with several script calls in flight', async () => {
    const source = queue('window');
    const count = movesPerScript * moveCallsInFlight + movesPerScript / 2;
    const jobs = await source.addBulk(Array.from({ length: count }, (_, index) => ({ name: 'j', data: { index } })));
    const ids = jobs.map((job) => job.id!);
    // Refused ones spread over the calls: one gone, one whose target id is taken, in different calls.
    const [gone, taken] = [ids[movesPerScript + 3]!, ids[count - 2]!];
    await source.remove(gone);
    await queue('window-to').add('other', {}, { jobId: movedJobId('window', taken) });
    const results = await moveJobIds(withinPlan(source, 'window-to', 'windowed'), ids);
    expect(results.map((result) => result.jobId)).toEqual(ids);
    const refused = results.filter((result) => !result.ok).map((result) => [result.jobId, result.code]);
    expect(refused).toEqual([
      [gone, 'NOT_FOUND'],
      [taken, 'FAILED'],
    ]);
    expect(await fixture.redis.get(moveTallyKey(ref('window-to'), 'windowed'))).toBe(String(count - 2));
    expect(await source.getJobCountByTypes('waiting')).toBe(1);
  });

  it('keeps its calls in flight back to back and reads options a piece ahead, the first piece one call', async () => {
    const source = queue('overlap');
    const count = movesPerScript + optionsPerRead * 2 + 50;
    const jobs = await source.addBulk(Array.from({ length: count }, (_, index) => ({ name: 'j', data: { index } })));
    const plan = withinPlan(source, 'overlap-to');
    const events: string[] = [];
    let [inFlight, most] = [0, 0];
    const traced: MovePlan = {
      ...logReads(plan, events),
      carry: async (orders) => {
        events.push('carry');
        most = Math.max(most, ++inFlight);
        const verdicts = await plan.carry(orders);
        inFlight--;
        events.push('carried');
        return verdicts;
      },
    };
    const results = await moveJobIds(
      traced,
      jobs.map((job) => job.id!),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const reads = events.filter((event) => event.startsWith('read'));
    expect(reads).toEqual([`read ${movesPerScript}`, `read ${optionsPerRead}`, `read ${optionsPerRead}`, 'read 50']);
    // Each piece is asked for before the calls before it end: the second before the first call ends, the
    // third while the calls of the second have hardly begun.
    expect(events.indexOf(`read ${optionsPerRead}`)).toBeLessThan(events.indexOf('carried'));
    const thirdRead = events.indexOf(`read ${optionsPerRead}`, events.indexOf(`read ${optionsPerRead}`) + 1);
    expect(events.slice(0, thirdRead).filter((event) => event === 'carry').length).toBeLessThanOrEqual(
      moveCallsInFlight + 1,
    );
    expect(most).toBe(moveCallsInFlight);
    expect(events.filter((event) => event === 'carry').length).toBe(Math.ceil(count / movesPerScript));
    expect(await queue('overlap-to').getJobCountByTypes('waiting')).toBe(count);
  });

  it('leaves a job a worker holds, and one whose id the target already holds, where they are', async () => {
    const source = queue('held');
    const target = queue('held-retry');
    const worker = new Worker('held', () => new Promise((resolve) => setTimeout(resolve, 3000)), {
      ...fixture.bullmq,
      concurrency: 1,
    });
    opened.push(worker);
    const active = await source.add('slow', {});
    await waitFor(async () => (await source.getJobState(active.id!)) === 'active', 5000, 'the job to be active');
    const taken = await source.add('taken', {}, { jobId: 'taken' });
    await target.add('other', {}, { jobId: movedJobId('held', 'taken') });
    const results = await moveJobIds(withinPlan(source, 'held-retry'), [active.id!, taken.id!]);
    expect(results.map((result) => result.code)).toEqual(['LOCKED', 'FAILED']);
    expect(await source.getJob('taken')).toBeDefined();
    expect((await target.getJob(movedJobId('held', 'taken')))!.name).toBe('other');
  });

  it('counts each job once when two moves of the same status run at once', async () => {
    const source = queue('twice');
    await source.addBulk(Array.from({ length: 2000 }, (_, n) => ({ name: 'work', data: { n } })));
    const moveAll = async (to: string) => {
      const plan = withinPlan(source, to);
      let [succeeded, refused] = [0, 0];
      for (let more = true; more; ) {
        const batch = await moveStatusBatch(plan, 'waiting', refused, 200);
        succeeded += batch.moved;
        refused += batch.refused;
        more = batch.more;
      }
      return succeeded;
    };
    const [a, b] = await Promise.all([moveAll('twice-a'), moveAll('twice-b')]);
    expect(a + b).toBe(2000);
    expect((await queue('twice-a').getWaitingCount()) + (await queue('twice-b').getWaitingCount())).toBe(2000);
    expect({ a: await queue('twice-a').getWaitingCount(), b: await queue('twice-b').getWaitingCount() }).toEqual({
      a,
      b,
    });
  });
});

describe('a move across two stores: the move journal decides', () => {
  it('a run that died after delivering never delivers again, though a worker removed the copy (removeOnComplete)', async () => {
    const targetClient = new Redis(fixture.bullmq.connection);
    opened.push({ close: async () => targetClient.disconnect() });
    const source = queue('far');
    const jobs = await source.addBulk(
      Array.from({ length: 50 }, (_, n) => ({ name: 'work', data: { n }, opts: { removeOnComplete: true } })),
    );
    const plan = (client: Redis): MovePlan => ({
      source: { ref: ref('far'), queue: source, readOpts: (ids) => readJobOpts(fixture.redis, ref('far'), ids) },
      target: { ref: ref('far-retry'), keepIds: false },
      ...acrossCalls,
      carry: (orders) =>
        moveAcrossStores(
          {
            source: redisMoveSource({ client, ref: ref('far') }),
            target: redisMoveTarget(
              { client: targetClient, ref: ref('far-retry') },
              moveJournalKey(ref('far-retry'), 'main', ref('far')),
            ),
            mover: 'task-1',
            tallied: true,
          },
          orders,
        ),
    });
    // The first run dies between delivering to the target and releasing the source: its release never reaches the store.
    const crashOnRelease = new Proxy(fixture.redis, {
      get(target, key, receiver) {
        const real = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'evalsha' && key !== 'eval') return real;
        // Once the copies are in the target, the source is never reached again.
        return async (...args: unknown[]) =>
          (await targetClient.llen(`${fixture.prefix}:far-retry:wait`)) > 0
            ? Promise.reject(new Error('killed'))
            : (real as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      },
    });
    await expect(
      moveJobIds(
        plan(crashOnRelease),
        jobs.map((job) => job.id!),
      ),
    ).rejects.toThrow('killed');
    expect(await source.getWaitingCount()).toBe(50);
    expect(await queue('far-retry').getWaitingCount()).toBe(50);
    const processed: string[] = [];
    const worker = new Worker('far-retry', async (job) => void processed.push(job.id!), {
      ...fixture.bullmq,
      concurrency: 50,
    });
    opened.push(worker);
    await waitFor(
      async () => processed.length === 50 && (await queue('far-retry').getCompletedCount()) === 0,
      10_000,
      'the copies to run and be removed',
    );

    const resumed = await moveJobIds(
      plan(fixture.redis),
      jobs.map((job) => job.id!),
    );
    expect(resumed.every((result) => result.ok)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processed).toHaveLength(50);
    expect(await source.getWaitingCount()).toBe(0);
    expect(Number(await fixture.redis.get(moveTallyKey(ref('far-retry'), 'task-1')))).toBe(50);
  });

  it('takes its copy back when a worker took the source job between delivery and release', async () => {
    const targetClient = new Redis(fixture.bullmq.connection);
    opened.push({ close: async () => targetClient.disconnect() });
    const source = queue('grabbed');
    const job = await source.add('work', { n: 1 });
    const journal = moveJournalKey(ref('grabbed-retry'), 'main', ref('grabbed'));
    // Once the copy is in the target, a worker locks the source job before the release reaches it.
    const lockingSource = new Proxy(fixture.redis, {
      get(target, key, receiver) {
        const real = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'evalsha' && key !== 'eval') return real;
        return async (...args: unknown[]) => {
          if ((await targetClient.llen(`${fixture.prefix}:grabbed-retry:wait`)) > 0)
            await fixture.redis.set(`${fixture.prefix}:grabbed:${job.id}:lock`, 'worker-token');
          return (real as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
    const plan: MovePlan = {
      source: {
        ref: ref('grabbed'),
        queue: source,
        readOpts: (ids) => readJobOpts(fixture.redis, ref('grabbed'), ids),
      },
      target: { ref: ref('grabbed-retry'), keepIds: false },
      ...acrossCalls,
      carry: (orders) =>
        moveAcrossStores(
          {
            source: redisMoveSource({ client: lockingSource, ref: ref('grabbed') }),
            target: redisMoveTarget({ client: targetClient, ref: ref('grabbed-retry') }, journal),
            mover: 'task-2',
            tallied: true,
          },
          orders,
        ),
    };
    expect(await moveJobIds(plan, [job.id!])).toEqual([
      expect.objectContaining({ jobId: job.id, ok: false, code: 'LOCKED' }),
    ]);
    expect(await queue('grabbed-retry').getJobCountByTypes('waiting', 'prioritized')).toBe(0);
    expect(await fixture.redis.exists(`${fixture.prefix}:grabbed-retry:${movedJobId('grabbed', job.id!)}`)).toBe(0);
    expect(await fixture.redis.hlen(journal)).toBe(0);
    expect(Number(await fixture.redis.get(moveTallyKey(ref('grabbed-retry'), 'task-2')))).toBe(0);
    expect(await source.getJob(job.id!)).toBeDefined();
  });
});
