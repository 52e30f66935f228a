import type { Redis } from 'ioredis';
import type { KeySummary, SearchKeysResult } from '../../contracts/store-keys.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { introspect } from '../../server/bullmq/introspection.js';
import { masterNodes } from '../../server/bullmq/master-nodes.js';
import { isReservedKey, reservedPrefixes } from './reserved-prefixes.js';
import { formatScanCursor, parseScanCursor, type ScanPosition } from './scan-cursor.js';

/** SCAN calls one search request may make: bounded work however sparse the pattern. */
const maxScanCalls = 10;
/** Keys a search page looks for unless the query says `limit`. */
export const defaultKeysPerPage = 100;

export interface SearchKeysRequest {
  store: StoreHandle;
  pattern: string;
  cursor: string;
  count: number;
  type?: string | undefined;
  excludeQueueKeys: boolean;
}

/**
 * One page of a SCAN-based key search (never KEYS): up to `maxScanCalls`
 * SCAN calls until about `count` keys are found, then their type, TTL and
 * memory in one pipeline on the node that holds them.
 */
export async function searchKeys(request: SearchKeysRequest): Promise<SearchKeysResult> {
  const nodes = await masterNodes(request.store.keyValue());
  let position: ScanPosition | null = parseScanCursor(request.cursor, nodes.length);
  const reserved = request.excludeQueueKeys ? reservedPrefixes(request.store) : [];
  const found: Array<{ node: Redis; key: string }> = [];
  for (let calls = 0; position !== null && calls < maxScanCalls && found.length < request.count; calls++) {
    const node: Redis = nodes[position.node]!;
    const args: Array<string | number> = ['MATCH', request.pattern, 'COUNT', request.count];
    if (request.type) args.push('TYPE', request.type);
    const [next, keys]: [string, string[]] = await node.scan(
      position.cursor,
      ...(args as ['MATCH', string, 'COUNT', number]),
    );
    for (const key of keys) if (!isReservedKey(key, reserved)) found.push({ node, key });
    position =
      next !== '0'
        ? { node: position.node, cursor: next }
        : position.node + 1 < nodes.length
          ? { node: position.node + 1, cursor: '0' }
          : null;
  }
  const warnings: string[] = [];
  const keys = await describeKeys(found, warnings);
  const cursor = formatScanCursor(position, nodes.length);
  return {
    keys,
    nextCursor: position === null ? null : cursor,
    cursor,
    done: position === null,
    warnings: [...new Set(warnings)],
  };
}

async function describeKeys(found: Array<{ node: Redis; key: string }>, warnings: string[]): Promise<KeySummary[]> {
  const byNode = new Map<Redis, string[]>();
  for (const { node, key } of found) byNode.set(node, [...(byNode.get(node) ?? []), key]);
  const described = await Promise.all([...byNode].map(([node, keys]) => describeOnNode(node, keys, warnings)));
  return described.flat();
}

async function describeOnNode(node: Redis, keys: string[], warnings: string[]): Promise<KeySummary[]> {
  const pipeline = node.pipeline();
  for (const key of keys) pipeline.type(key).ttl(key);
  const results = (await pipeline.exec()) ?? [];
  const memory = await introspect(warnings, 'MEMORY USAGE', () => memoryUsage(node, keys));
  const summaries: KeySummary[] = [];
  keys.forEach((key, index) => {
    const [typeError, type] = results[index * 2]!;
    const [ttlError, ttl] = results[index * 2 + 1]!;
    if (typeError) throw typeError;
    if (ttlError) throw ttlError;
    if (type === 'none') return; // expired or deleted since SCAN saw it
    const memoryBytes = memory?.[index];
    summaries.push({
      key,
      type: String(type),
      ttl: Number(ttl),
      ...(typeof memoryBytes === 'number' ? { memoryBytes } : {}),
    });
  });
  return summaries;
}

async function memoryUsage(node: Redis, keys: string[]): Promise<Array<number | null>> {
  const pipeline = node.pipeline();
  for (const key of keys) pipeline.memory('USAGE', key);
  const results = (await pipeline.exec()) ?? [];
  const failure = results.find(([error]) => error)?.[0];
  if (failure) throw failure;
  return results.map(([, bytes]) => (bytes === null ? null : Number(bytes)));
}
