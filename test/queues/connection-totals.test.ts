import { describe, expect, it } from 'vitest';
import { jobCountKinds, type JobCounts } from '../../contracts/queues.js';
import { ConnectionTotals } from '../../server/bullmq/connection-totals.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';

/** Only the connection's id and version key the totals: a handle without a client is enough here. */
const storeOf = (id: string, version = 1) =>
  ({ connection: { id, updatedAt: new Date(version) } }) as unknown as StoreHandle;
const counts = (waiting: number) =>
  ({ ...Object.fromEntries(jobCountKinds.map((kind) => [kind, 0])), waiting }) as JobCounts;

/** A cache on a clock the test moves, and a recount that answers `next` and counts its calls. */
function setup(ttlMs = 1000) {
  const clock = { now: 10_000 };
  const cache = new ConnectionTotals({ ttlMs, now: () => clock.now });
  const recount = { calls: 0, next: counts(0) };
  const recounting = async () => {
    recount.calls++;
    return recount.next;
  };
  return { clock, cache, recount, recounting };
}

describe('ConnectionTotals', () => {
  it('serves counted totals until the window has passed, then asks for a count again', () => {
    const { clock, cache, recounting } = setup();
    const store = storeOf('main');
    expect(cache.fresh(store, recounting)).toBeUndefined();
    cache.counted(store, { totals: counts(5), countedAt: cache.startCount() });
    clock.now += 400;
    expect(cache.fresh(store, recounting)).toEqual({ totals: counts(5), countedAt: 10_000 });
    clock.now += 600;
    expect(cache.fresh(store, recounting)).toBeUndefined();
  });

  it('past half the window serves what it has and recounts once in the background', async () => {
    const { clock, cache, recount, recounting } = setup();
    const store = storeOf('main');
    cache.counted(store, { totals: counts(5), countedAt: clock.now });
    clock.now += 500;
    recount.next = counts(7);
    expect(cache.fresh(store, recounting)?.totals).toEqual(counts(5));
    expect(cache.fresh(store, recounting)?.totals).toEqual(counts(5));
    await cache.settled();
    expect(recount.calls).toBe(1);
    // The recount started at 10,500: its totals are served until 11,500.
    clock.now += 999;
    expect(cache.fresh(store, recounting)).toEqual({ totals: counts(7), countedAt: 10_500 });
  });

  it('keeps the newest count when an older one finishes later', () => {
    const { cache, recounting } = setup();
    const store = storeOf('main');
    cache.counted(store, { totals: counts(9), countedAt: 10_000 });
    cache.counted(store, { totals: counts(1), countedAt: 9_990 });
    expect(cache.fresh(store, recounting)?.totals).toEqual(counts(9));
  });

  it('never serves totals of another connection, nor of an earlier version of the same one', () => {
    const { cache, recounting } = setup();
    cache.counted(storeOf('main', 1), { totals: counts(5), countedAt: 10_000 });
    expect(cache.fresh(storeOf('other', 1), recounting)).toBeUndefined();
    expect(cache.fresh(storeOf('main', 2), recounting)).toBeUndefined();
  });

  it('keeps nothing when the window is 0 (SERVICE_QUEUE_LIST_CACHE_MS=0)', () => {
    const { cache, recounting } = setup(0);
    cache.counted(storeOf('main'), { totals: counts(5), countedAt: 10_000 });
    expect(cache.fresh(storeOf('main'), recounting)).toBeUndefined();
  });
});
