import type { SelectedQueue } from '../../server/bullmq/queue-selection.js';

/** Which of `length` queues (by index, in the directory's order: by name) a page is taken from, and how. */
export interface IndexedQueues {
  length: number;
  /** Its count (the sort's); 0 for every queue in a name sort. */
  countOf(i: number): number;
  /** Whether it is selected (a state, a name search); every queue without it. */
  keeps?: ((i: number) => boolean) | undefined;
}

export interface IndexedPage {
  /** How many queues are selected. */
  total: number;
  /** The page's indexes, in the page's order. */
  indexes: number[];
}

/**
 * Items `start`..`end` (inclusive) of the selected queues ordered by count
 * (`direction` 1 ascending, -1 descending), ties by index (the directory's
 * name order): a page of a count sort without an object or a sort of every
 * queue. A heap of `end + 1` indexes keeps the last of the order at its root,
 * so 100,000 tracked queues cost one pass reading a number each (~1 ms), not
 * an allocation each (tens of ms of young-generation copying); a page near
 * the end sorts the selected indexes.
 */
export function pageByCount(queues: IndexedQueues, start: number, end: number, direction: 1 | -1): IndexedPage {
  const { length, countOf, keeps } = queues;
  const k = end + 1;
  const before = (i: number, j: number) => {
    const by = (countOf(i) - countOf(j)) * direction;
    return by < 0 || (by === 0 && i < j);
  };
  if (k <= 0) return { total: keeps ? countKept(length, keeps) : length, indexes: [] };
  if (k >= length / 4) {
    const kept = keptIndexes(length, keeps);
    const sorted = Array.from(kept).sort((i, j) => (before(i, j) ? -1 : 1));
    return { total: kept.length, indexes: sorted.slice(start, k) };
  }
  const heap: number[] = [];
  let total = 0;
  for (let i = 0; i < length; i++) {
    if (keeps && !keeps(i)) continue;
    total++;
    if (heap.length < k) {
      heap.push(i);
      siftUp(heap, heap.length - 1, before);
    } else if (before(i, heap[0]!)) {
      heap[0] = i;
      siftDown(heap, before);
    }
  }
  return { total, indexes: heap.sort((i, j) => (before(i, j) ? -1 : 1)).slice(start) };
}

/** Items `start`..`end` of the selected queues in index (name) order, or from the last with `direction` -1. */
export function pageByIndex(queues: IndexedQueues, start: number, end: number, direction: 1 | -1): IndexedPage {
  const kept = keptIndexes(queues.length, queues.keeps);
  const total = kept.length;
  const indexes: number[] = [];
  for (let at = start; at <= end && at < total; at++) indexes.push(kept[direction === 1 ? at : total - 1 - at]!);
  return { total, indexes };
}

/** The first `k` of `items` by count, ties in their given order (the script-read selection's page). */
export function firstInOrder(items: readonly SelectedQueue[], k: number, direction: 1 | -1): SelectedQueue[] {
  const page = pageByCount({ length: items.length, countOf: (i) => items[i]!.count }, 0, k - 1, direction);
  return page.indexes.map((i) => items[i]!);
}

/** The selected indexes, in a typed array: one allocation, not one a queue. */
function keptIndexes(length: number, keeps: IndexedQueues['keeps']): Uint32Array {
  const kept = new Uint32Array(length);
  let total = 0;
  for (let i = 0; i < length; i++) if (!keeps || keeps(i)) kept[total++] = i;
  return kept.subarray(0, total);
}

function countKept(length: number, keeps: (i: number) => boolean): number {
  let total = 0;
  for (let i = 0; i < length; i++) if (keeps(i)) total++;
  return total;
}

type Before = (i: number, j: number) => boolean;

/** The root is the item that comes last: a parent never comes before its children. */
function siftUp(heap: number[], at: number, before: Before): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (!before(heap[parent]!, heap[at]!)) return;
    [heap[parent], heap[at]] = [heap[at]!, heap[parent]!];
    at = parent;
  }
}

function siftDown(heap: number[], before: Before): void {
  for (let at = 0; ; ) {
    const left = 2 * at + 1;
    const right = left + 1;
    let last = at;
    if (left < heap.length && before(heap[last]!, heap[left]!)) last = left;
    if (right < heap.length && before(heap[last]!, heap[right]!)) last = right;
    if (last === at) return;
    [heap[last], heap[at]] = [heap[at]!, heap[last]!];
    at = last;
  }
}
