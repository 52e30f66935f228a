import { Cluster, type Redis } from 'ioredis';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { compareRefs, metaKeyPattern, queueRefFromMetaKey, type QueueRef } from './queue-keys.js';

/** Keys SCAN looks at per call: large enough for few round trips, small enough not to block Redis. */
export const scanCount = 1000;

async function masterNodes(client: StoreClient): Promise<Redis[]> {
  if (!(client instanceof Cluster)) return [client];
  // A lazily connected cluster knows its nodes only after its first command.
  if (client.nodes('master').length === 0) await client.ping();
  return client.nodes('master');
}

async function scanNode(node: Redis, prefix: string, found: Map<string, QueueRef>): Promise<void> {
  const pattern = metaKeyPattern(prefix);
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', scanCount);
    cursor = next;
    for (const key of keys) {
      const ref = queueRefFromMetaKey(prefix, key);
      if (ref) found.set(`${ref.prefix}\u0000${ref.name}`, ref);
    }
  } while (cursor !== '0');
}

/**
 * Every queue on a store, found by its meta key: SCAN (never KEYS) for each
 * prefix on every master of a cluster, sorted by name then prefix. Its cost
 * grows with the store's key count, which is why callers cache the result.
 */
export async function discoverQueues(store: { client: StoreClient; prefixes: string[] }): Promise<QueueRef[]> {
  const found = new Map<string, QueueRef>();
  const nodes = await masterNodes(store.client);
  await Promise.all(nodes.flatMap((node) => store.prefixes.map((prefix) => scanNode(node, prefix, found))));
  return [...found.values()].sort(compareRefs);
}
