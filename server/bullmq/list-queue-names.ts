import type { Redis } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { masterNodes } from './master-nodes.js';
import { compareRefs, metaKeyPattern, queueRefFromMetaKey, type QueueRef } from './queue-key.js';

export type { QueueRef } from './queue-key.js';

/**
 * Keys SCAN looks at per call (each call then blocks Redis only briefly),
 * and the most calls per node and prefix (100M keys: bounded work; 10M cut
 * a store of 100,000 queues among 20M keys in half). A scan that hits the
 * cap says so: it never passes for a complete one.
 */
export interface ScanLimits {
  count: number;
  maxCalls: number;
}
export const defaultScanLimits: ScanLimits = { count: 1000, maxCalls: 100_000 };

export interface QueueScan {
  /** Every queue found, sorted by name then prefix. */
  refs: QueueRef[];
  /** Prefixes whose scan stopped before the end of some node's keyspace, and why. */
  incomplete: Array<{ prefix: string; reason: string }>;
}

async function scanNode(
  node: Redis,
  prefix: string,
  found: QueueRef[],
  limits: ScanLimits,
  known: readonly QueueRef[],
): Promise<string | null> {
  const pattern = metaKeyPattern(prefix);
  let cursor = '0';
  for (let calls = 0; calls < limits.maxCalls; calls++) {
    const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', limits.count);
    for (const key of keys) {
      const ref = queueRefFromMetaKey(prefix, key);
      if (ref) found.push(knownRef(known, ref) ?? ref);
    }
    cursor = next;
    if (cursor === '0') return null;
  }
  const where = `${node.options.host ?? '?'}:${node.options.port ?? '?'}`;
  return `SCAN stopped after ${limits.maxCalls} calls of COUNT ${limits.count} on ${where} (about ${limits.maxCalls * limits.count} keys looked at, the store holds more); queues past that point are not listed`;
}

/**
 * Every queue of a connection, found by its meta key (the refs of `known`, sorted, reused for those found again): SCAN (never KEYS) for
 * `<prefix>:*:meta` under each prefix on every master of a cluster. Its cost
 * grows with the store's key count (about a second per million keys), which
 * is why lists read the queue index (server/discovery/queue-index.ts).
 */
export async function scanQueueNames(
  store: { client: StoreClient; prefixes: string[] },
  limits: ScanLimits = defaultScanLimits,
  known: readonly QueueRef[] = [],
): Promise<QueueScan> {
  const found: QueueRef[] = [];
  const nodes = await masterNodes(store.client);
  const incomplete: QueueScan['incomplete'] = [];
  await Promise.all(
    nodes.flatMap((node) =>
      store.prefixes.map(async (prefix) => {
        const reason = await scanNode(node, prefix, found, limits, known);
        if (reason) incomplete.push({ prefix, reason });
      }),
    ),
  );
  // SCAN may return a key twice: sorted, a repeat is next to the first.
  const refs = found.sort(compareRefs).filter((ref, i) => i === 0 || compareRefs(found[i - 1]!, ref) !== 0);
  return { refs, incomplete };
}

/**
 * The object `known` (sorted by compareRefs) holds for `ref`, by binary search: a queue found again is the
 * index's own ref, not a new object kept for the scan's minute (at 100,000 queues, ~50 MiB of RSS after a
 * scan came from the promoted copies), and a scan that changes nothing gives the index its own refs back.
 */
function knownRef(known: readonly QueueRef[], ref: QueueRef): QueueRef | undefined {
  let low = 0;
  let high = known.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const order = compareRefs(known[middle]!, ref);
    if (order === 0) return known[middle];
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** The queue names a full scan finds now (schedulers and tools that must not wait on the index). */
export async function listQueueNames(store: { client: StoreClient; prefixes: string[] }): Promise<QueueRef[]> {
  return (await scanQueueNames(store)).refs;
}
