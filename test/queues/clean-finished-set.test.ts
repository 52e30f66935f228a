import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanCallPlan } from '../../routers/queues/clean-calls.js';
import { jobKeySuffixes } from '../../server/bullmq/clean-finished-set.js';
import { cleanUpTo, countUpTo } from '../../routers/queues/clean-up-to.js';
import { bullmqCleaner } from '../../routers/queues/purge-queue.js';
import { redisStatusCleaning } from '../../server/bullmq/status-cleaning.js';
import { storeFixture } from '../helpers/stores.js';
import { copyPrefix, craftPendingParents, seedFinishedJobs, snapshot } from './support/finished-jobs-store.js';

/**
 * Bullpen's cheaper clean of the finished sets must leave the store exactly as
 * BullMQ's own clean does. One store of real BullMQ jobs (plain, with logs,
 * deduplicated, children of flows, children still counted by a parent in this
 * queue or in another) is copied under a second prefix; Bullpen purges one
 * copy, a bare `clean(0, 1000)` loop the other, and every key left is compared. Both forms: answering the
 * removed ids (the purge route), and answering their count (a purge task).
 */
describe.each(['ids', 'count'] as const)(
  'cleanFinishedSet (answering %s) removes what BullMQ clean removes, the same way',
  (answer) => {
    const ours = storeFixture();
    const theirs = storeFixture();
    const open: Array<{ close(): Promise<unknown> }> = [];

    beforeAll(async () => {
      await ours.redis.connect();
      await theirs.redis.connect();
      await seedFinishedJobs(ours.bullmq, ours.redis);
      await craftPendingParents(ours.redis, ours.prefix);
      await copyPrefix(ours.redis, ours.prefix, theirs.prefix);
    }, 60_000);
    afterAll(async () => {
      await Promise.all(open.map((handle) => handle.close()));
      await ours.cleanup();
      await theirs.cleanup();
    });

    it('leaves the same keys with the same contents, and as many jobs reported cleaned', async () => {
      const before = await snapshot(ours.redis, ours.prefix);
      // Every kind of key BullMQ deletes with a job is there to delete.
      for (const suffix of jobKeySuffixes
        .slice(1)
        .filter((suffix) => suffix !== ':unsuccessful' && suffix !== ':dependencies')) {
        expect(before.keys.some((key) => key.startsWith('mix:') && key.endsWith(suffix))).toBe(true);
      }
      let removed = 0;
      for (const status of ['completed', 'failed'] as const) {
        const queue = new Queue('mix', ours.bullmq);
        open.push(queue);
        const cleaner = bullmqCleaner(queue, redisStatusCleaning(ours.redis), { prefix: ours.prefix, name: 'mix' });
        // Calls of 7, two in flight: the script's stops at linked jobs fall inside calls, BullMQ goes on.
        const plan = { ...cleanCallPlan(status, 7), size: 7 };
        const emptied =
          answer === 'ids'
            ? await cleanUpTo(cleaner, status, 10_000, plan, (ids) => (removed += ids.length))
            : await countUpTo(cleaner, status, 10_000, plan, (count) => (removed += count));
        expect(emptied).toBe(true);

        const bare = new Queue('mix', theirs.bullmq);
        open.push(bare);
        while ((await bare.clean(0, 1000, status)).length > 0);
      }
      const [after, reference] = [await snapshot(ours.redis, ours.prefix), await snapshot(theirs.redis, theirs.prefix)];
      expect(removed).toBe(before.finished);
      expect(after.finished).toBe(0);
      expect(after.keys).toEqual(reference.keys);
      expect(after.contents).toEqual(reference.contents);
      expect(after.cleaned).toBe(reference.cleaned);
      // The crafted parents were handled: one removed with its last child, one moved to its queue's wait list.
      expect(after.keys).not.toContain('mix:orphaned-parent');
      expect(after.contents['other:wait']).toEqual(['waiting-parent']);
    });
  },
);
