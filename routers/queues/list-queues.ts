import type { ListQueuesQuery, QueueList } from '../../contracts/queues.js';
import { pageInfoFor, pageRange } from '../../contracts/pagination.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueDirectory } from '../../server/bullmq/queue-directory.js';
import { compareRefs, type QueueRef } from '../../server/bullmq/queue-key.js';
import { fetchCount, fetchQueueSummaries } from '../../server/bullmq/queue-states.js';

/** Names arrive sorted by name; a count sort fetches that one count for every matching queue (O(1) each, one round trip). */
async function sortQueues(store: StoreHandle, refs: QueueRef[], query: ListQueuesQuery): Promise<QueueRef[]> {
  if (query.sort === 'name') return query.order === 'desc' ? [...refs].reverse() : refs;
  const counts = await fetchCount(store.client, refs, query.sort);
  const direction = query.order === 'asc' ? 1 : -1;
  return refs
    .map((ref, index) => ({ ref, count: counts[index]! }))
    .sort((a, b) => (a.count - b.count) * direction || compareRefs(a.ref, b.ref))
    .map(({ ref }) => ref);
}

/**
 * One page of the store's queues. Names come from the directory (already
 * sorted by name); the full counts are fetched for the page only.
 */
export async function listQueues({
  store,
  directory,
  query,
}: {
  store: StoreHandle;
  directory: QueueDirectory;
  query: ListQueuesQuery;
}): Promise<QueueList> {
  const needle = query.search.toLowerCase();
  const all = await directory.list(store);
  const matching = needle === '' ? all : all.filter((ref) => ref.name.toLowerCase().includes(needle));
  const sorted = await sortQueues(store, matching, query);
  const { start, end } = pageRange(query);
  const queues = await fetchQueueSummaries(store.client, sorted.slice(start, end + 1));
  return { ...pageInfoFor(matching.length, query), queues };
}
