import { describe, expect, it } from 'vitest';
import { firstInOrder } from '../../routers/queues/count-order.js';
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
