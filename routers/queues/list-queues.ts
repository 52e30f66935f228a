import type { ListQueuesQuery, QueueList } from '../../contracts/queues.js';
import { pageInfoFor, pageRange } from '../../contracts/pagination.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueDirectory } from '../../server/bullmq/queue-directory.js';
import { compareRefs, type QueueRef } from '../../server/bullmq/queue-key.js';
import { fetchQueueSummaries } from '../../server/bullmq/queue-states.js';
import { selectQueues, type SelectedQueue } from '../../server/bullmq/queue-selection.js';

/** Names arrive sorted by name; a count sort orders by the count the selection read for every matching queue. */
function orderQueues(queues: SelectedQueue[], query: ListQueuesQuery): QueueRef[] {
  if (query.sort === 'name') {
    const refs = queues.map(({ ref }) => ref);
    return query.order === 'desc' ? refs.reverse() : refs;
  }
  const direction = query.order === 'asc' ? 1 : -1;
  return [...queues].sort((a, b) => (a.count - b.count) * direction || compareRefs(a.ref, b.ref)).map(({ ref }) => ref);
}

/**
 * One page of the store's queues. Names come from the directory (already
 * sorted by name); a state, a count sort and the totals are read together
 * for every queue concerned; the full counts only for the page.
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
  const named = (ref: QueueRef) => needle === '' || ref.name.toLowerCase().includes(needle);
  const all = await directory.list(store);
  const totals = query.totals === true;
  // Totals are the whole connection's: then every queue is read, and the name search applies after.
  const { selected, totals: summed } = await selectQueues(store.client, totals ? all : all.filter(named), {
    state: query.state,
    sortBy: query.sort === 'name' ? undefined : query.sort,
    totals,
  });
  const matching = totals && needle !== '' ? selected.filter(({ ref }) => named(ref)) : selected;
  const { start, end } = pageRange(query);
  const queues = await fetchQueueSummaries(store.client, orderQueues(matching, query).slice(start, end + 1));
  return { ...pageInfoFor(matching.length, query), queues, ...(summed ? { totals: summed } : {}) };
}
