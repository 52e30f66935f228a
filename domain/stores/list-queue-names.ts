import type { Redis } from 'ioredis';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { masterNodes } from './master-nodes.js';
import { compareRefs, metaKeyPattern, queueRefFromMetaKey, type QueueRef } from './queue-key.js';

export type { QueueRef } from './queue-key.js';

/**
 * Keys SCAN looks at per call (each call then blocks Redis only briefly),
 * and the most calls per node and prefix (10M keys: bounded work).
 */
const scanCount = 1000;
const maxScanCalls = 10_000;

async function scanNode(node: Redis, prefix: string, found: Map<string, QueueRef>): Promise<void> {
  const pattern = metaKeyPattern(prefix);
  let cursor = '0';
  for (let calls = 0; calls < maxScanCalls; calls++) {
    const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', scanCount);
    for (const key of keys) {
      const ref = queueRefFromMetaKey(prefix, key);
      if (ref) found.set(`${ref.prefix}\u0000${ref.name}`, ref);
    }
    cursor = next;
    if (cursor === '0') return;
  }
}

/**
 * Every queue of a connection, found by its meta key: SCAN (never KEYS) for
 * `<prefix>:*:meta` under each prefix on every master of a cluster, sorted by
 * name then prefix. Its cost grows with the store's key count (about a
 * second per million keys), which is why the queues list caches it
 * (server/queues/cached-queue-directory.ts).
 */
export async function listQueueNames(store: { client: StoreClient; prefixes: string[] }): Promise<QueueRef[]> {
  const found = new Map<string, QueueRef>();
  const nodes = await masterNodes(store.client);
  await Promise.all(nodes.flatMap((node) => store.prefixes.map((prefix) => scanNode(node, prefix, found))));
  return [...found.values()].sort(compareRefs);
}
