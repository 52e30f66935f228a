import type { ListQueuesQuery, QueueList } from '../../contracts/queues.js';
import { pageInfoFor, pageRange } from '../../contracts/pagination.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { ConnectionTotals, CountedTotals } from '../../server/bullmq/connection-totals.js';
import type { QueueDirectory } from '../../server/bullmq/queue-directory.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { countedStates, countsByIndex, type SelectedQueue } from '../../server/bullmq/queue-selection.js';
import { firstInOrder, pageByCount, pageByIndex } from './count-order.js';

/**
 * The requested page of the selected queues (in the directory's order, by
 * name), in the query's order: a count sort picks the page's queues by their
 * count (ties by name) without sorting every queue.
 */
function pageOf(matching: SelectedQueue[], query: ListQueuesQuery): { total: number; refs: QueueRef[] } {
  const { start, end } = pageRange(query);
  if (query.sort === 'name') {
    const refs = matching.map(({ ref }) => ref);
    return { total: matching.length, refs: (query.order === 'desc' ? refs.reverse() : refs).slice(start, end + 1) };
  }
  const first = firstInOrder(matching, end + 1, query.order === 'asc' ? 1 : -1);
  return { total: matching.length, refs: first.slice(start).map(({ ref }) => ref) };
}

/** The page's refs when nothing is read of every queue (no state, a name sort): a slice of the directory's sorted list. */
function namePage(all: QueueRef[], named: (ref: QueueRef) => boolean, query: ListQueuesQuery) {
  const matching = query.search === '' ? all : all.filter(named);
  const { start, end } = pageRange(query);
  const ordered =
    query.order === 'desc'
      ? matching.slice(Math.max(0, matching.length - end - 1), Math.max(0, matching.length - start)).reverse()
      : matching.slice(start, end + 1);
  return { total: matching.length, refs: ordered };
}

/**
 * One page of the store's queues. Names come from the directory (already
 * sorted by name); a state and a count sort are read together for every
 * queue concerned; the full counts only for the page. Connection-wide
 * totals come from the store's tracked counts (exact, reading only queues
 * that changed), or else are counted in the same script calls, or served
 * from `totals` when counted within SERVICE_QUEUE_LIST_CACHE_MS (`totalsAt`
 * says when).
 */
export async function listQueues({
  store,
  directory,
  totals: totalsCache,
  query,
}: {
  store: StoreHandle;
  directory: QueueDirectory;
  totals: ConnectionTotals;
  query: ListQueuesQuery;
}): Promise<QueueList> {
  const needle = query.search.toLowerCase();
  const named = (ref: QueueRef) => needle === '' || ref.name.toLowerCase().includes(needle);
  const all = await directory.list(store);
  // Exact totals from the store's tracked counts when it keeps them; else counted ones, kept for the window.
  // A count sort and a state counts decide read them too: then a page costs what changed, not every queue.
  const countsDecide = !query.state || countedStates.has(query.state);
  const tracked =
    query.totals === true || (countsDecide && (query.sort !== 'name' || query.state !== undefined))
      ? await store.counts.totals(all)
      : undefined;
  const cached =
    query.totals === true
      ? (tracked ?? totalsCache.fresh(store, async () => (await store.selectQueues(all, { totals: true })).totals!))
      : undefined;
  const counting = query.totals === true && !cached;
  const countedAt = counting ? totalsCache.startCount() : 0;
  let page: { total: number; refs: QueueRef[] };
  let counted: CountedTotals | undefined;
  if (!counting && !query.state && query.sort === 'name') page = namePage(all, named, query);
  else if (tracked && countsDecide) {
    // The tracked counts are exact and every queue's: a count sort and a state they decide need no lookup,
    // and the page is picked by index from the rows (one pass, no object a queue).
    const counts = countsByIndex(tracked.rows, {
      state: query.state,
      sortBy: query.sort === 'name' ? undefined : query.sort,
    });
    const holds = counts.keeps;
    const keeps = needle === '' ? holds : (i: number) => (!holds || holds(i)) && named(all[i]!);
    const { start, end } = pageRange(query);
    const direction = query.order === 'asc' ? 1 : -1;
    const picked =
      query.sort === 'name'
        ? pageByIndex({ ...counts, keeps }, start, end, query.order === 'desc' ? -1 : 1)
        : pageByCount({ ...counts, keeps }, start, end, direction);
    page = { total: picked.total, refs: picked.indexes.map((i) => all[i]!) };
  } else {
    // Counted totals are the whole connection's: then every queue is read, and the name search applies after.
    const { selected, totals } = await store.selectQueues(counting ? all : all.filter(named), {
      state: query.state,
      sortBy: query.sort === 'name' ? undefined : query.sort,
      totals: counting,
    });
    page = pageOf(counting && needle !== '' ? selected.filter(({ ref }) => named(ref)) : selected, query);
    if (totals) {
      counted = { totals, countedAt };
      totalsCache.counted(store, counted);
    }
  }
  const queues = await store.queueSummaries(page.refs);
  const answered = cached ?? counted;
  return {
    ...pageInfoFor(page.total, query),
    queues,
    ...(answered ? { totals: answered.totals, totalsAt: new Date(answered.countedAt).toISOString() } : {}),
  };
}
