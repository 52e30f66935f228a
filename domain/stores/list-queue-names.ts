import type { StoreHandle } from '../../server/stores/store-handle.js';
import { escapeGlob } from './glob.js';
import { masterNodes } from './master-nodes.js';

export interface QueueRef {
  prefix: string;
  name: string;
}

/** Keys SCAN looks at per call, and the most calls one discovery may make (bounded work). */
const scanCount = 1000;
const maxScanCalls = 10_000;

/**
 * Every queue of a connection: SCAN (never KEYS) for `<prefix>:<name>:meta`
 * under each of its prefixes, on every master of a cluster. Sorted by prefix
 * then name. Minimal on purpose; the queues resource has the full discovery
 * and the two are meant to be unified.
 */
export async function listQueueNames(store: StoreHandle): Promise<QueueRef[]> {
  const nodes = await masterNodes(store.client);
  const found = new Map<string, QueueRef>();
  for (const prefix of store.prefixes) {
    const pattern = `${escapeGlob(prefix)}:*:meta`;
    for (const node of nodes) {
      for (const key of await scanAll(node, pattern)) {
        const name = key.slice(prefix.length + 1, -':meta'.length);
        if (name.length > 0) found.set(`${prefix}\u0000${name}`, { prefix, name });
      }
    }
  }
  return [...found.values()].sort((a, b) => a.prefix.localeCompare(b.prefix) || a.name.localeCompare(b.name));
}

async function scanAll(node: Awaited<ReturnType<typeof masterNodes>>[number], pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  for (let calls = 0; calls < maxScanCalls; calls++) {
    const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', scanCount);
    keys.push(...batch);
    cursor = next;
    if (cursor === '0') break;
  }
  return keys;
}
