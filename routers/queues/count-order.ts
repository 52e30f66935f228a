import type { SelectedQueue } from '../../server/bullmq/queue-selection.js';

/**
 * The first `k` of `items` ordered by count (`direction` 1 ascending, -1
 * descending), ties in their given order (the directory's, by name): a page
 * of a count sort without sorting every queue. A heap of `k` keeps the last
 * of the order at its root, so 100,000 queues cost a pass and a few
 * comparisons each, not a sort; a page near the end sorts them all.
 */
export function firstInOrder(items: readonly SelectedQueue[], k: number, direction: 1 | -1): SelectedQueue[] {
  if (k <= 0) return [];
  if (k >= items.length / 4) return [...items].sort((a, b) => (a.count - b.count) * direction).slice(0, k); // a stable sort
  const before = (i: number, j: number) => {
    const by = (items[i]!.count - items[j]!.count) * direction;
    return by < 0 || (by === 0 && i < j);
  };
  const heap: number[] = [];
  for (let i = 0; i < items.length; i++) {
    if (heap.length < k) {
      heap.push(i);
      siftUp(heap, heap.length - 1, before);
    } else if (before(i, heap[0]!)) {
      heap[0] = i;
      siftDown(heap, before);
    }
  }
  return heap.sort((i, j) => (before(i, j) ? -1 : 1)).map((i) => items[i]!);
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
