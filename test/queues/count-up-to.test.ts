import { describe, expect, it } from 'vitest';
import { countUpTo, type StatusCleaner } from '../../routers/queues/clean-up-to.js';

/** A cleaner over `left` jobs of one status; `withCount` gives it the count-answering call a Redis store has. */
function cleanerOf(left: number, withCount: boolean): StatusCleaner & { idCalls: number; countCalls: number } {
  const take = (limit: number) => {
    const taken = Math.min(limit, left);
    left -= taken;
    return taken;
  };
  const cleaner = {
    idCalls: 0,
    countCalls: 0,
    clean: async (_status: string, limit: number) => {
      cleaner.idCalls++;
      return Array.from({ length: take(limit) }, (_, index) => String(index));
    },
    count: async () => left,
    ...(withCount
      ? {
          cleanCount: async (_status: string, limit: number) => {
            cleaner.countCalls++;
            return take(limit);
          },
        }
      : {}),
  };
  return cleaner;
}

describe('countUpTo (a purge task: counts, not ids)', () => {
  it.each([true, false])('removes every job, counting each call once (cleanCount: %s)', async (withCount) => {
    const cleaner = cleanerOf(1003, withCount);
    const counts: number[] = [];
    const emptied = await countUpTo(cleaner, 'failed', 10_000, { size: 250, inFlight: 4 }, (count) =>
      counts.push(count),
    );
    expect(emptied).toBe(true);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1003);
    // The count-answering call when the cleaner has one; the ids' length otherwise.
    expect(withCount ? [cleaner.countCalls > 0, cleaner.idCalls] : [cleaner.countCalls, cleaner.idCalls > 0]).toEqual(
      withCount ? [true, 0] : [0, true],
    );
  });

  it('stops at the budget, the status not yet emptied', async () => {
    const cleaner = cleanerOf(5000, true);
    let removed = 0;
    expect(await countUpTo(cleaner, 'completed', 1000, { size: 250, inFlight: 2 }, (count) => (removed += count))).toBe(
      false,
    );
    expect(removed).toBe(1000);
  });
});
