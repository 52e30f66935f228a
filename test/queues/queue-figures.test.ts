import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobCountKinds } from '../../contracts/queues.js';
import { figures, keeping, readQueueFigures } from '../../server/bullmq/queue-figures.js';
import { jobCountsAt } from '../../server/bullmq/queue-states.js';
import { commandsDuring } from '../helpers/command-count.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

/** The one figures script every reader of many queues uses, against real BullMQ queues. */
describe('readQueueFigures', () => {
  const fixture = storeFixture();
  const queues: Queue[] = [];
  const names = ['a-busy', 'b-failing', 'c-paused', 'd-empty', 'e-delayed'];
  const refs = names.map((name) => ({ prefix: fixture.prefix, name }));

  beforeAll(async () => {
    await fixture.redis.connect();
    queues.push(
      await seedQueue(fixture.bullmq, 'a-busy', { waiting: 3, prioritized: 2, completed: 2 }),
      await seedQueue(fixture.bullmq, 'b-failing', { failed: 2, completed: 1 }),
      await seedQueue(fixture.bullmq, 'c-paused', { waiting: 1 }),
      await seedQueue(fixture.bullmq, 'd-empty', {}),
      await seedQueue(fixture.bullmq, 'e-delayed', { delayed: 4 }),
    );
    await queues[2]!.pause();
    await queues[3]!.setGlobalConcurrency(1); // writes its meta hash: an existing queue without jobs
  });
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await fixture.cleanup();
  });

  it('reads the counts BullMQ reports and its pause flag, queue by queue in the order asked', async () => {
    const { values } = await readQueueFigures(
      fixture.redis,
      refs,
      [figures.paused(), ...jobCountKinds.map(figures.count)],
      100,
    );
    for (const [index, queue] of queues.entries()) {
      const counts = await queue.getJobCounts(
        'wait',
        'active',
        'delayed',
        'completed',
        'failed',
        'prioritized',
        'waiting-children',
      );
      // BullMQ 6 no longer counts the legacy `paused` list.
      const legacyPaused = await fixture.redis.llen(`${fixture.prefix}:${queue.name}:paused`);
      const expected = [
        counts.wait,
        counts.active,
        counts.delayed,
        counts.completed,
        counts.failed,
        legacyPaused,
        counts.prioritized,
        counts['waiting-children'],
      ];
      expect(values[index]).toEqual([(await queue.isPaused()) ? 1 : 0, ...expected]);
    }
  });

  it('tells which queues hold a job in any of some statuses', async () => {
    const { values } = await readQueueFigures(
      fixture.redis,
      refs,
      [figures.anyJob(['waiting', 'active', 'delayed', 'prioritized'])],
      100,
    );
    expect(values.map((own) => own[0])).toEqual([1, 0, 1, 0, 1]);
    // e-delayed holds only delayed jobs: found past the empty statuses tried first.
    const onlyPrioritized = await readQueueFigures(fixture.redis, refs, [figures.anyJob(['prioritized'])], 100);
    expect(onlyPrioritized.values.map((own) => own[0])).toEqual([1, 0, 0, 0, 0]);
  });

  it('cuts the queues into calls of perCall, keeps the order, and sums across the calls', async () => {
    const read = [
      keeping('both', figures.count('waiting')),
      keeping('sum', figures.count('failed')),
      figures.count('delayed'),
    ];
    const whole = await readQueueFigures(fixture.redis, refs, read, 100);
    let cut: Awaited<ReturnType<typeof readQueueFigures>> | undefined;
    const sent = await commandsDuring(
      fixture.redis,
      async () => (cut = await readQueueFigures(fixture.redis, refs, read, 2)),
    );
    expect(sent).toEqual(['evalsha', 'evalsha', 'evalsha']);
    expect(cut).toEqual(whole);
    expect(whole.values.map((own) => own[0])).toEqual([3, 0, 1, 0, 0]);
    expect(whole.values.every((own) => Number.isNaN(own[1]))).toBe(true);
    expect(whole.values.map((own) => own[2])).toEqual([0, 0, 0, 0, 4]);
    // Sums only for the figures kept as a sum: waiting (both) and failed (sum).
    expect(whole.sums).toEqual([4, 2, 0]);
  });

  it('reads figures of usually missing keys right whether one of them, several or none exists', async () => {
    // Rare figures (statuses most queues have no job in, BullMQ's per-minute metrics) are looked up together first.
    const points = `${fixture.prefix}:d-empty:metrics:failed:data`;
    await fixture.redis.rpush(points, '5', '1', '7');
    const read = [
      figures.count('delayed'),
      figures.count('prioritized'),
      figures.finishedInPoints('failed', 2),
      figures.count('waiting'),
      figures.finishedInPoints('completed', 2),
    ];
    expect(read.filter((one) => one.rare).length).toBe(4);
    const { values } = await readQueueFigures(fixture.redis, refs, read, 100);
    expect(values).toEqual([
      [0, 2, 0, 3, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 1, 0],
      [0, 0, 6, 0, 0],
      [4, 0, 0, 0, 0],
    ]);
    await fixture.redis.del(points);
  });

  it('sums counts kept as sums only (the list totals, its own loop in the script) to what the seeds hold', async () => {
    const summed = await readQueueFigures(
      fixture.redis,
      refs,
      jobCountKinds.map((kind) => keeping('sum', figures.count(kind))),
      2,
    );
    const seeded = {
      waiting: 4,
      active: 0,
      delayed: 4,
      completed: 3,
      failed: 2,
      paused: 0,
      prioritized: 2,
      waitingChildren: 0,
    };
    expect(summed.sums).toEqual(jobCountKinds.map((kind) => seeded[kind]));
    expect(summed.values.every((own) => own.every(Number.isNaN))).toBe(true);
    const perQueue = await readQueueFigures(fixture.redis, refs, jobCountKinds.map(figures.count), 100);
    expect(summed.sums).toEqual(
      jobCountKinds.map((_, k) => perQueue.values.reduce((total, own) => total + own[k]!, 0)),
    );
  });

  it('reads nothing for no queues', async () => {
    const sent = await commandsDuring(fixture.redis, () =>
      readQueueFigures(fixture.redis, [], [figures.count('waiting')], 10),
    );
    expect(sent).toEqual([]);
  });
});

describe('jobCountsAt', () => {
  it('names each count by its place in jobCountKinds order, from the offset on, in that key order', () => {
    const counts = jobCountsAt([-1, 10, 11, 12, 13, 14, 15, 16, 17], 1);
    expect(Object.keys(counts)).toEqual([...jobCountKinds]);
    expect(jobCountKinds.map((kind) => counts[kind])).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
  });
});
