import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { moveJobIds, movedJobId, movedOpts, type MovePlan } from '../../routers/jobs/move-jobs.js';
import { moveWithinStorePlain } from '../../server/bullmq/move-plain.js';
import { readJobOpts } from '../../server/bullmq/read-job-opts.js';
import {
  moveCallsInFlight,
  moveTallyKey,
  moveWithinStore,
  movesPerScript,
} from '../../server/bullmq/move-within-store.js';
import { moveBed } from './support/move-bed.js';

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

  it('makes the options of jobs naming a dropped key in the store too; reads only options BullMQ did not write', async () => {
    const source = queue('named');
    const added = [
      await source.add('plain', {}, { attempts: 2 }),
      await source.add('backoff', {}, { attempts: 5, backoff: { type: 'fixed', delay: 50 } }),
      await source.add('delayed', {}, { delay: 60_000 }),
      await source.add('deduplicated', {}, { deduplication: { id: 'd-1' } }),
      await source.add('custom', {}, { jobId: 'custom-id' }),
      await source.add('described', {}, { attempts: 1 }),
      await source.add('spaced', {}, { attempts: 1 }),
    ];
    // A value that merely starts like a dropped name ("de…"); options written with spaces (not BullMQ's).
    await fixture.redis.hset(`${fixture.prefix}:named:${added[5]!.id}`, 'opts', '{"attempts":1,"label":"details"}');
    await fixture.redis.hset(`${fixture.prefix}:named:${added[6]!.id}`, 'opts', '{ "attempts": 1, "delay": 5 }');
    const ids = added.map((job) => job.id!);
    const before = await Promise.all(ids.map((id) => storedOpts('named', id)));
    const reads: string[][] = [];
    const results = await moveJobIds(plainPlan(source, 'named-to', reads), ids);
    expect(results).toEqual(ids.map((jobId) => ({ jobId, ok: true })));
    expect(reads).toEqual([[ids[6]]]);
    for (const [index, id] of ids.entries()) {
      const targetId = movedJobId('named', id);
      expect(await storedOpts('named-to', targetId)).toBe(movedOpts(before[index]!, targetId));
    }
    const backoff = JSON.parse((await storedOpts('named-to', movedJobId('named', ids[1]!)))!);
    expect(backoff.backoff).toEqual({ type: 'fixed', delay: 50 });
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
