import { describe, expect, it } from 'vitest';
import { firstInOrder, pageByCount, pageByIndex } from '../../routers/queues/count-order.js';
import type { SelectedQueue } from '../../server/bullmq/queue-selection.js';

const queues = (counts: number[]): SelectedQueue[] =>
  counts.map((count, i) => ({ ref: { prefix: 'bull', name: `q${String(i).padStart(5, '0')}` }, count }));

/** What a full stable sort gives: by count, ties in the given (name) order. */
const bySort = (items: SelectedQueue[], direction: 1 | -1) =>
  [...items].sort((a, b) => (a.count - b.count) * direction);

describe('firstInOrder (a page of a count sort without sorting every queue)', () => {
  it('picks the same first queues as a full sort, ties by name, in both directions and any page size', () => {
    const items = queues(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 13));
    for (const direction of [1, -1] as const) {
      for (const k of [1, 10, 100, 250, 1300, 6000]) {
        const expected = bySort(items, direction).slice(0, k);
        expect(firstInOrder(items, k, direction).map(({ ref }) => ref.name)).toEqual(
          expected.map(({ ref }) => ref.name),
        );
      }
    }
  });

  it('answers nothing for an empty page or list', () => {
    expect(firstInOrder([], 10, -1)).toEqual([]);
    expect(firstInOrder(queues([1, 2]), 0, -1)).toEqual([]);
  });
});

describe('pageByCount and pageByIndex (a page picked by index from the tracked rows)', () => {
  const counts = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 17);
  const keeps = (i: number) => i % 3 !== 0 && counts[i]! > 2;
  /** What selecting every queue and sorting them gives, the page sliced from it. */
  const reference = (by: 'count' | 'index', direction: 1 | -1, start: number, end: number) => {
    const kept = counts.map((_, i) => i).filter(keeps);
    const ordered = by === 'count' ? kept.sort((a, b) => (counts[a]! - counts[b]!) * direction || a - b) : kept;
    if (by === 'index' && direction === -1) ordered.reverse();
    return { total: kept.length, indexes: ordered.slice(start, end + 1) };
  };

  it('answers the same page and total as a full selection and sort, any page, both directions', () => {
    const queues = { length: counts.length, countOf: (i: number) => counts[i]!, keeps };
    for (const direction of [1, -1] as const) {
      for (const [start, end] of [
        [0, 0],
        [0, 99],
        [100, 199],
        [500, 1499],
        [1400, 1600],
        [5000, 5099],
      ] as const) {
        expect(pageByCount(queues, start, end, direction)).toEqual(reference('count', direction, start, end));
        expect(pageByIndex(queues, start, end, direction)).toEqual(reference('index', direction, start, end));
      }
    }
  });

  it('counts every queue without a selection, and nothing is picked past the end', () => {
    const queues = { length: counts.length, countOf: (i: number) => counts[i]! };
    expect(pageByCount(queues, 0, 9, -1).total).toBe(counts.length);
    expect(pageByIndex(queues, 2995, 3004, 1)).toEqual({ total: 3000, indexes: [2995, 2996, 2997, 2998, 2999] });
    expect(pageByCount({ length: 0, countOf: () => 0 }, 0, 99, 1)).toEqual({ total: 0, indexes: [] });
  });
});
