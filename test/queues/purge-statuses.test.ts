import { describe, expect, it } from 'vitest';
import { describeError } from '../../server/trpc/errors.js';
import type { StatusCleaner } from '../../routers/queues/clean-up-to.js';
import { expandSelectors, purgeLimits, purgeStatuses } from '../../routers/queues/purge-statuses.js';
import { capError, endlessCleaner, fakeCleaner } from './support/fake-cleaners.js';

describe('expandSelectors', () => {
  it('de-duplicates', () => {
    expect(expandSelectors(['failed', 'failed'])).toEqual(['failed']);
  });

  it('expands all to every status, whatever else is asked', () => {
    expect(expandSelectors(['waiting', 'all'])).toEqual([
      'waiting',
      'active',
      'delayed',
      'completed',
      'failed',
      'paused',
      'prioritized',
    ]);
  });
});

describe('purgeStatuses', () => {
  it('runs one call of 1000 at a time until a call removes nothing, counting each status', async () => {
    const { cleaner, calls, remaining } = fakeCleaner({ waiting: 2500, delayed: 10, completed: 7 });
    const result = await purgeStatuses({ cleaner, statuses: ['waiting', 'delayed'] });
    expect(result.removedByStatus).toEqual({ waiting: 2500, delayed: 10 });
    expect(result.totalRemoved).toBe(2510);
    expect(result.statusesPurged).toEqual(['waiting', 'delayed']);
    expect(calls.filter((call) => call.status === 'waiting').length).toBe(4);
    expect(calls.every((call) => call.limit === 1000 && call.inFlight === 1)).toBe(true);
    expect(remaining.get('completed')!.length).toBe(7);
  });

  it('empties completed and failed in calls of 250, two in flight, counting the call sent ahead', async () => {
    const { cleaner, calls } = fakeCleaner({ failed: 2600, completed: 10 });
    const result = await purgeStatuses({ cleaner, statuses: ['completed', 'failed'] });
    expect(result.removedByStatus).toEqual({ completed: 10, failed: 2600 });
    expect(result.totalRemoved).toBe(2610);
    const failedCalls = calls.filter((call) => call.status === 'failed');
    expect(failedCalls.every((call) => call.limit === 250)).toBe(true);
    expect(Math.max(...failedCalls.map((call) => call.inFlight))).toBe(2);
    // 10 full calls, one of 100, then the empty one (and the one sent alongside it).
    expect(failedCalls.length).toBe(13);
    expect(result.removedJobIdsSample.slice(9, 11)).toEqual(['completed-9', 'failed-0']);
  });

  it('counts jobs a call sent ahead removed after an empty call (e.g. jobs finished meanwhile)', async () => {
    let call = 0;
    const cleaner: StatusCleaner = {
      async clean(_status, limit) {
        call += 1;
        return call === 1
          ? Array.from({ length: limit }, (_, i) => `a${i}`)
          : call === 2
            ? []
            : call === 3
              ? ['late']
              : [];
      },
      count: async () => 0,
    };
    const result = await purgeStatuses({ cleaner, statuses: ['completed'] });
    expect(result.removedByStatus).toEqual({ completed: 251 });
    expect(call).toBe(3);
  });

  it('fails with the error of the first call once the call sent alongside it is settled, its own failure handled', async () => {
    let sent = 0;
    let settled = 0;
    const cleaner: StatusCleaner = {
      async clean() {
        const order = sent++;
        // The call sent second fails first, while the first is still awaited.
        await new Promise((resolve) => setTimeout(resolve, order === 0 ? 20 : 0));
        settled += 1;
        throw new Error(order === 0 ? 'store went away' : 'second failure');
      },
      count: async () => 0,
    };
    await expect(purgeStatuses({ cleaner, statuses: ['failed'] })).rejects.toThrow('store went away');
    expect(settled).toBe(2);
  });

  it('caps the id sample at 100 strings across statuses', async () => {
    const { cleaner } = fakeCleaner({ failed: 60, completed: 80 });
    const result = await purgeStatuses({ cleaner, statuses: ['failed', 'completed'] });
    expect(result.removedJobIdsSample).toHaveLength(100);
    expect(result.removedJobIdsSample.slice(58, 62)).toEqual(['failed-58', 'failed-59', 'completed-0', 'completed-1']);
  });

  it('caps completed and failed at the same 500 batches of 1000, sent as 2000 calls of 250', async () => {
    const cleaner = endlessCleaner();
    const error = await capError(purgeStatuses({ cleaner, statuses: ['failed'] }));
    expect(cleaner.batches).toBe(2000);
    expect(error.details).toMatchObject({
      status: 'failed',
      removedSoFar: 500_000,
      removedByStatus: { failed: 500_000 },
    });
  });

  it('stops with 409 PURGE_CAP_REACHED naming the status after 500 full batches', async () => {
    const cleaner = endlessCleaner();
    const error = await capError(purgeStatuses({ cleaner, statuses: ['delayed', 'failed'] }));
    expect(cleaner.batches).toBe(purgeLimits.maxBatchesPerStatus);
    expect(error.code).toBe('PURGE_CAP_REACHED');
    expect(error.details).toMatchObject({
      status: 'delayed',
      removedSoFar: 500_000,
      removedByStatus: { delayed: 500_000 },
      statusesPurged: [],
    });
    expect(error.details.removedJobIdsSample).toHaveLength(100);
    expect(describeError(error)).toMatchObject({
      httpStatus: 409,
      code: 'PURGE_CAP_REACHED',
      details: { status: 'delayed' },
    });
  });

  it('reports the statuses finished before the one that hit the cap', async () => {
    const limits = { batchSize: 2, maxBatchesPerStatus: 3, sampleSize: 4 };
    const { cleaner } = fakeCleaner({ completed: 3, failed: 20 });
    const error = await capError(purgeStatuses({ cleaner, statuses: ['completed', 'failed'], limits }));
    expect(error.details).toMatchObject({
      status: 'failed',
      removedSoFar: 9,
      removedByStatus: { completed: 3, failed: 6 },
      statusesPurged: ['completed'],
      removedJobIdsSample: ['completed-0', 'completed-1', 'completed-2', 'failed-0'],
    });
  });

  it('succeeds when the last allowed batch emptied the status', async () => {
    const limits = { batchSize: 2, maxBatchesPerStatus: 3, sampleSize: 4 };
    const { cleaner } = fakeCleaner({ failed: 6 });
    const result = await purgeStatuses({ cleaner, statuses: ['failed'], limits });
    expect(result.removedByStatus).toEqual({ failed: 6 });
  });

  it('ends a status whose remaining jobs cannot be removed instead of looping', async () => {
    const { cleaner, calls } = fakeCleaner({ active: 3 }, { active: 2 });
    const result = await purgeStatuses({ cleaner, statuses: ['active'] });
    expect(result.removedByStatus).toEqual({ active: 3 });
    expect(calls).toHaveLength(2);
  });
});
