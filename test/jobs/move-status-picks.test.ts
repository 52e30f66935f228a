import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { movedJobId, moveStatusBatch, type MovePlan } from '../../routers/jobs/move-jobs.js';
import { statusMove } from '../../server/bullmq/move-from-status.js';
import { moveWithinStorePlain } from '../../server/bullmq/move-plain.js';
import {
  moveCallsInFlight,
  moveHeldKey,
  moveTallyKey,
  moveWithinStore,
  movesPerScript,
} from '../../server/bullmq/move-within-store.js';
import { readJobOpts } from '../../server/bullmq/read-job-opts.js';
import { moveBed } from './support/move-bed.js';

const { fixture, queue, ref } = moveBed();

/** A status-wide move within the fixture's store as planMove makes it for a task `mover`, its options reads logged. */
function picksPlan(from: Queue, to: string, mover: string, options: { keepIds?: boolean; reads?: string[][] } = {}) {
  const keepIds = options.keepIds ?? false;
  const [source, target, tally] = [ref(from.name), ref(to), moveTallyKey(ref(to), mover)];
  const plan: MovePlan = {
    source: {
      ref: source,
      queue: from,
      readOpts: (ids) => {
        options.reads?.push(ids);
        return readJobOpts(fixture.redis, source, ids);
      },
    },
    target: { ref: target, keepIds },
    callSize: movesPerScript,
    callsInFlight: moveCallsInFlight,
    carry: (orders) => moveWithinStore(fixture.redis, source, target, orders, tally),
    carryPlain: (orders) => moveWithinStorePlain(fixture.redis, source, target, orders, tally),
    statusMove: (status) =>
      statusMove({
        client: fixture.redis,
        from: source,
        to: target,
        status,
        mover,
        tallied: true,
        idPrefix: keepIds ? '' : movedJobId(from.name, ''),
      }),
  };
  return plan;
}

/** Runs a status-wide move to its end in batches of `batchSize`, as the task does; its counts. */
async function moveAll(plan: MovePlan, status: string, batchSize: number) {
  let [moved, refused, batches] = [0, 0, 0];
  for (let more = true; more; batches++) {
    const batch = await moveStatusBatch(plan, status, refused, batchSize);
    [moved, refused, more] = [moved + batch.moved, refused + batch.refused, batch.more];
  }
  return { moved, refused, batches };
}

const jobKey = (queueName: string, id: string) => `${fixture.prefix}:${queueName}:${id}`;

describe('a status-wide move whose jobs the store picks (no ids over the wire)', () => {
  it('moves a list status oldest first, reading nothing, and counts every job in the tally', async () => {
    const source = queue('picked');
    const jobs = await source.addBulk(Array.from({ length: 950 }, (_, n) => ({ name: 'j', data: { n } })));
    const reads: string[][] = [];
    const plan = picksPlan(source, 'picked-to', 'mover-a', { reads });
    expect(await moveAll(plan, 'waiting', 400)).toEqual({ moved: 950, refused: 0, batches: 3 });
    expect(reads).toEqual([]);
    const arrived = await queue('picked-to').getWaiting(0, -1);
    // The target's oldest waiting job is the source's oldest: workers take them in the same order.
    expect(arrived.map((job) => job.id)).toEqual(jobs.map((job) => movedJobId('picked', job.id!)));
    expect(await fixture.redis.get(moveTallyKey(ref('picked-to'), 'mover-a'))).toBe('950');
  });

  it('steps past refused jobs with calls in flight, and leaves them at the head in their order', async () => {
    const source = queue('refusing');
    const jobs = await source.addBulk(Array.from({ length: 1000 }, (_, n) => ({ name: 'j', data: { n } })));
    const held = jobs.filter((_, n) => n % 7 === 0).map((job) => job.id!);
    for (const id of held) await fixture.redis.set(`${jobKey('refusing', id)}:lock`, 'worker');
    const plan = picksPlan(source, 'refusing-to', 'mover-b');
    expect(await moveAll(plan, 'waiting', 600)).toEqual({
      moved: 1000 - held.length,
      refused: held.length,
      batches: 2,
    });
    expect((await source.getWaiting(0, -1)).map((job) => job.id)).toEqual(held);
    // A run resumed with a stale count of refused jobs (0) still starts past them, and reports them.
    expect(await moveStatusBatch(plan, 'waiting', 0, 600)).toEqual({ moved: 0, refused: held.length, more: false });
  });

  it('carries jobs whose options or new id the store cannot write as full orders, freeing their places', async () => {
    const source = queue('odd');
    const plain = await source.add('plain', {}, { attempts: 1 });
    const spaced = await source.add('spaced', {}, { attempts: 2 });
    const quoted = await source.add('quoted', {}, { jobId: 'say "hi"' });
    await fixture.redis.hset(jobKey('odd', spaced.id!), 'opts', '{ "attempts": 2, "delay": 9 }');
    await source.add('later', {}, { attempts: 3 });
    const reads: string[][] = [];
    const plan = picksPlan(source, 'odd-to', 'mover-c', { reads });
    expect(await moveAll(plan, 'waiting', 100)).toEqual({ moved: 4, refused: 0, batches: 1 });
    expect(reads).toEqual([[spaced.id, quoted.id]]);
    const copy = await queue('odd-to').getJob(movedJobId('odd', 'say "hi"'));
    expect(copy?.opts.jobId).toBe(movedJobId('odd', 'say "hi"'));
    expect((await queue('odd-to').getJob(movedJobId('odd', spaced.id!)))?.opts).toEqual({
      attempts: 2,
      jobId: movedJobId('odd', spaced.id!),
    });
    expect(await queue('odd-to').getJob(movedJobId('odd', plain.id!))).toBeDefined();
    expect(await fixture.redis.hgetall(moveHeldKey(ref('odd'), 'mover-c'))).toEqual({ at: '0', refused: '0' });
  });

  it('a run resumed after a crash carries the jobs the dead run left pending, and moves each once', async () => {
    const source = queue('crashed');
    const jobs = await source.addBulk(Array.from({ length: 300 }, (_, n) => ({ name: 'j', data: { n } })));
    await fixture.redis.hset(jobKey('crashed', jobs[5]!.id!), 'opts', '{ "attempts": 1, "delay": 5 }');
    const plan = picksPlan(source, 'crashed-to', 'mover-d');
    await fixture.redis.zadd(`${fixture.prefix}:crashed:failed`, ...jobs.flatMap((job, n) => [n, job.id!]));
    await fixture.redis.del(`${fixture.prefix}:crashed:wait`);
    // The dead run: one call went through (its pending job not yet carried), then the service died.
    const dead = await plan.statusMove!('failed')!.pick(movesPerScript, 0);
    expect(dead.staying).toEqual([{ jobId: jobs[5]!.id, verdict: 'rewrite' }]);
    expect(await moveAll(plan, 'failed', 1000)).toEqual({ moved: 300 - movesPerScript + 1, refused: 0, batches: 1 });
    expect(await source.getJobCountByTypes('failed', 'waiting')).toBe(0);
    expect(await queue('crashed-to').getJobCountByTypes('waiting')).toBe(300);
    expect(await fixture.redis.get(moveTallyKey(ref('crashed-to'), 'mover-d'))).toBe('300');
  });

  it('refuses a numeric id kept as is (BullMQ takes none as a custom id), and keeps the others', async () => {
    const source = queue('kept');
    const numeric = await source.add('numbered', {});
    await source.add('named', {}, { jobId: 'order-7' });
    const plan = picksPlan(source, 'kept-to', 'mover-e', { keepIds: true });
    expect(await moveAll(plan, 'waiting', 100)).toEqual({ moved: 1, refused: 1, batches: 1 });
    expect(await queue('kept-to').getJob('order-7')).toBeDefined();
    expect(await source.getJob(numeric.id!)).toBeDefined();
  });

  it('counts each job once when two moves of the same status run at once', async () => {
    const source = queue('racing');
    await source.addBulk(Array.from({ length: 3000 }, (_, n) => ({ name: 'j', data: { n } })));
    const [a, b] = await Promise.all([
      moveAll(picksPlan(source, 'racing-a', 'mover-f'), 'waiting', 500),
      moveAll(picksPlan(source, 'racing-b', 'mover-g'), 'waiting', 500),
    ]);
    expect(a.moved + b.moved).toBe(3000);
    expect(await queue('racing-a').getWaitingCount()).toBe(a.moved);
    expect(await queue('racing-b').getWaitingCount()).toBe(b.moved);
  });
});
