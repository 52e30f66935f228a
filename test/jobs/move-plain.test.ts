import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { moveJobIds, movedJobId, movedOpts, type MovePlan } from '../../routers/jobs/move-jobs.js';
import { moveWithinStorePlain } from '../../server/bullmq/move-plain.js';
import {
  moveCallsInFlight,
  moveTallyKey,
  moveWithinStore,
  movesPerScript,
  readJobOpts,
} from '../../server/bullmq/move-within-store.js';
import { logReads, moveBed } from './support/move-bed.js';

const { fixture, queue, ref } = moveBed();
const storedOpts = (queueName: string, id: string) =>
  fixture.redis.hget(`${fixture.prefix}:${queueName}:${id}`, 'opts');

/** A move within the fixture's store as planMove makes it, counting the options reads it makes. */
function plainPlan(from: Queue, to: string, reads: string[][]): MovePlan {
  const tally = moveTallyKey(ref(to), 'plain-mover');
  return {
    source: {
      ref: ref(from.name),
      queue: from,
      readOpts: (ids) => {
        reads.push(ids);
        return readJobOpts(fixture.redis, ref(from.name), ids);
      },
    },
    target: { ref: ref(to), keepIds: false },
    callSize: movesPerScript,
    callsInFlight: moveCallsInFlight,
    carry: (orders) => moveWithinStore(fixture.redis, ref(from.name), ref(to), orders, tally),
    carryPlain: (orders) => moveWithinStorePlain(fixture.redis, ref(from.name), ref(to), orders, tally),
  };
}

describe('a move within one store by ids alone (the store makes the options)', () => {
  it('reads no options when none names a dropped key, and gives each copy what the service would write', async () => {
    const source = queue('plain');
    const jobs = await source.addBulk(
      Array.from({ length: 250 }, (_, n) => ({
        name: 'j',
        data: { n },
        opts: { attempts: 3, removeOnComplete: { age: 60 }, lifo: n % 2 === 0 },
      })),
    );
    const before = await Promise.all(jobs.map((job) => storedOpts('plain', job.id!)));
    const reads: string[][] = [];
    const results = await moveJobIds(
      plainPlan(source, 'plain-to', reads),
      jobs.map((job) => job.id!),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(reads).toEqual([]);
    for (const [index, job] of jobs.entries()) {
      const targetId = movedJobId('plain', job.id!);
      expect(await storedOpts('plain-to', targetId)).toBe(movedOpts(before[index]!, targetId));
    }
    expect(await fixture.redis.get(moveTallyKey(ref('plain-to'), 'plain-mover'))).toBe('250');
  });

  it('leaves a job whose options name a dropped key to the service: read, parsed, moved in the same run', async () => {
    const source = queue('named');
    const added = [
      await source.add('plain', {}, { attempts: 2 }),
      await source.add('backoff', {}, { attempts: 5, backoff: { type: 'fixed', delay: 50 } }),
      await source.add('delayed', {}, { delay: 60_000 }),
      await source.add('deduplicated', {}, { deduplication: { id: 'd-1' } }),
      await source.add('custom', {}, { jobId: 'custom-id' }),
      await source.add('described', {}, { attempts: 1 }),
    ];
    // A value that merely starts like a dropped name ("de…") is left to the service too: same result.
    await fixture.redis.hset(`${fixture.prefix}:named:${added[5]!.id}`, 'opts', '{"attempts":1,"label":"details"}');
    const ids = added.map((job) => job.id!);
    const before = await Promise.all(ids.map((id) => storedOpts('named', id)));
    const reads: string[][] = [];
    const results = await moveJobIds(plainPlan(source, 'named-to', reads), ids);
    expect(results).toEqual(ids.map((jobId) => ({ jobId, ok: true })));
    expect(reads).toEqual([ids.slice(1)]);
    for (const [index, id] of ids.entries()) {
      const targetId = movedJobId('named', id);
      expect(await storedOpts('named-to', targetId)).toBe(movedOpts(before[index]!, targetId));
    }
    const backoff = JSON.parse((await storedOpts('named-to', movedJobId('named', ids[1]!)))!);
    expect(backoff.backoff).toEqual({ type: 'fixed', delay: 50 });
    expect(await source.count()).toBe(0);
  });

  it('reads options ahead for the rest of the run once the first call found most need the service', async () => {
    const source = queue('backoff');
    const count = movesPerScript * 4;
    const jobs = await source.addBulk(
      Array.from({ length: count }, (_, n) => ({
        name: 'j',
        data: { n },
        opts: { attempts: 3, backoff: { type: 'fixed', delay: 1000 } },
      })),
    );
    const ids = jobs.map((job) => job.id!);
    const reads: string[][] = [];
    const plan = plainPlan(source, 'backoff-to', reads);
    let byIds = 0;
    const counted: MovePlan = {
      ...plan,
      carryPlain: (orders) => {
        byIds++;
        return plan.carryPlain!(orders);
      },
    };
    const results = await moveJobIds(counted, ids);
    expect(results.every((result) => result.ok)).toBe(true);
    // One call by ids alone (every job answered `rewrite`, then read), the rest read ahead in one piece.
    expect(byIds).toBe(1);
    expect(reads).toEqual([ids.slice(0, movesPerScript), ids.slice(movesPerScript)]);
    const moved = JSON.parse((await storedOpts('backoff-to', movedJobId('backoff', ids[count - 1]!)))!);
    expect(moved).toEqual({
      attempts: 3,
      backoff: { type: 'fixed', delay: 1000 },
      jobId: movedJobId('backoff', ids[count - 1]!),
    });
  });

  it('a later batch of the same move goes as the batch before found, without waiting for its first call', async () => {
    const source = queue('shaped');
    const added = await source.addBulk(
      Array.from({ length: movesPerScript * 8 }, (_, n) => ({
        name: 'j',
        data: { n },
        opts: { backoff: { type: 'fixed', delay: 10 } },
      })),
    );
    const ids = added.map((job) => job.id!);
    const events: string[] = [];
    const reads: string[][] = [];
    const plan = { ...plainPlan(source, 'shaped-to', reads), byIdsServed: {} as { last?: boolean } };
    const traced: MovePlan = {
      ...logReads(plan, events),
      carryPlain: async (orders) => {
        events.push('by ids');
        const verdicts = await plan.carryPlain!(orders);
        events.push('by ids answered');
        return verdicts;
      },
    };
    const half = movesPerScript * 4;
    expect((await moveJobIds(traced, ids.slice(0, half))).every((result) => result.ok)).toBe(true);
    expect(plan.byIdsServed.last).toBe(false);
    events.length = 0;
    expect((await moveJobIds(traced, ids.slice(half))).every((result) => result.ok)).toBe(true);
    // The other calls read their options ahead at once, before the first call (by ids) is answered.
    expect(events.indexOf(`read ${half - movesPerScript}`)).toBeLessThan(events.indexOf('by ids answered'));
    expect(await source.count()).toBe(0);
  });

  it('answers gone and taken jobs as the full path does, each in its place', async () => {
    const source = queue('gaps');
    const jobs = await source.addBulk(Array.from({ length: 5 }, (_, n) => ({ name: 'j', data: { n } })));
    const ids = jobs.map((job) => job.id!);
    await source.remove(ids[1]!);
    await queue('gaps-to').add('other', {}, { jobId: movedJobId('gaps', ids[3]!) });
    const results = await moveJobIds(plainPlan(source, 'gaps-to', []), ids);
    expect(results.map((result) => [result.jobId, result.ok, result.code])).toEqual([
      [ids[0], true, undefined],
      [ids[1], false, 'NOT_FOUND'],
      [ids[2], true, undefined],
      [ids[3], false, 'FAILED'],
      [ids[4], true, undefined],
    ]);
  });
});
