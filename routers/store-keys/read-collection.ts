import type { StoreClient } from '../../server/stores/redis-client.js';

export interface Page {
  offset: number;
  limit: number;
}

export type HashEntry = { field: string; value: string };
type ScanKind = 'hash' | 'set';

/** Reads one page of a list, sorted set or stream by position; each fetches only about the page. */
export const rangeReaders = {
  async list(client: StoreClient, key: string, { offset, limit }: Page): Promise<string[]> {
    return client.lrange(key, offset, offset + limit - 1);
  },

  async zset(
    client: StoreClient,
    key: string,
    { offset, limit }: Page,
  ): Promise<Array<{ member: string; score: number }>> {
    const flat = await client.zrange(key, offset, String(offset + limit - 1), 'WITHSCORES');
    const entries: Array<{ member: string; score: number }> = [];
    for (let at = 0; at < flat.length; at += 2) entries.push({ member: flat[at]!, score: Number(flat[at + 1]) });
    return entries;
  },

  async stream(
    client: StoreClient,
    key: string,
    { offset, limit }: Page,
  ): Promise<Array<{ id: string; fields: Record<string, string> }>> {
    const entries = (await client.xrange(key, '-', '+', 'COUNT', offset + limit)) as Array<[string, string[]]>;
    return entries.slice(offset).map(([id, flat]) => {
      const fields: Record<string, string> = {};
      for (let at = 0; at < flat.length; at += 2) fields[flat[at]!] = flat[at + 1]!;
      return { id, fields };
    });
  },
};

export const scanKinds = new Set<string>(['hash', 'set']);

/** One SSCAN/HSCAN call. Sets and hashes have no ranged read; scanning is incremental and never blocks the store. */
async function scanOnce(
  client: StoreClient,
  kind: ScanKind,
  key: string,
  cursor: string,
  count: number,
): Promise<[string, Array<string | HashEntry>]> {
  if (kind === 'set') return client.sscan(key, cursor, 'COUNT', count);
  const [next, flat] = await client.hscan(key, cursor, 'COUNT', count);
  const entries: HashEntry[] = [];
  for (let at = 0; at < flat.length; at += 2) entries.push({ field: flat[at]!, value: flat[at + 1]! });
  return [next, entries];
}

const identity = (entry: string | HashEntry) => (typeof entry === 'string' ? entry : entry.field);

/** A set or hash page by position: scans from the start, skipping `offset` distinct entries (cost grows with offset). */
export async function scanByOffset(client: StoreClient, kind: ScanKind, key: string, { offset, limit }: Page) {
  const seen = new Map<string, string | HashEntry>();
  let cursor = '0';
  do {
    const [next, entries] = await scanOnce(client, kind, key, cursor, 1000);
    for (const entry of entries) if (!seen.has(identity(entry))) seen.set(identity(entry), entry);
    cursor = next;
  } while (cursor !== '0' && seen.size < offset + limit);
  return [...seen.values()].slice(offset, offset + limit);
}

/**
 * A set or hash page from a SCAN cursor: whole SCAN batches (COUNT `limit`)
 * until about `limit` entries or `maxBytes` are gathered, so no entry is
 * skipped; the cheap way through a big value. SCAN may repeat an entry.
 */
export async function scanFromCursor(
  client: StoreClient,
  kind: ScanKind,
  key: string,
  cursor: string,
  limit: number,
  maxBytes: number,
  sizeOf: (entry: unknown) => number,
) {
  const entries: Array<string | HashEntry> = [];
  let bytes = 0;
  let next = cursor;
  do {
    const [after, batch] = await scanOnce(client, kind, key, next, limit);
    entries.push(...batch);
    bytes += batch.reduce((sum, entry) => sum + sizeOf(entry), 0);
    next = after;
  } while (next !== '0' && entries.length < limit && bytes < maxBytes);
  return { entries, nextCursor: next === '0' ? null : next };
}

/** One page by position of any collection type; null for types this reader does not know (module types). */
export async function readPage(client: StoreClient, type: string, key: string, page: Page): Promise<unknown[] | null> {
  if (type === 'hash' || type === 'set') return scanByOffset(client, type, key, page);
  if (type in rangeReaders) return rangeReaders[type as keyof typeof rangeReaders](client, key, page);
  return null;
}

export const sizeCommands = {
  string: 'strlen',
  hash: 'hlen',
  list: 'llen',
  set: 'scard',
  zset: 'zcard',
  stream: 'xlen',
} as const;
