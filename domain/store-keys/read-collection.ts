import type { StoreClient } from '../../server/stores/redis-client.js';

export interface Page {
  offset: number;
  limit: number;
}

/** Reads one page of each collection type; every reader fetches only about the page, not the whole value. */
export const collectionReaders = {
  async list(client: StoreClient, key: string, { offset, limit }: Page): Promise<string[]> {
    return client.lrange(key, offset, offset + limit - 1);
  },

  async zset(client: StoreClient, key: string, { offset, limit }: Page): Promise<Array<{ member: string; score: number }>> {
    const flat = await client.zrange(key, offset, String(offset + limit - 1), 'WITHSCORES');
    const entries: Array<{ member: string; score: number }> = [];
    for (let at = 0; at < flat.length; at += 2) entries.push({ member: flat[at]!, score: Number(flat[at + 1]) });
    return entries;
  },

  /** SORT … BY nosort LIMIT pages a set server-side in its stable iteration order. */
  async set(client: StoreClient, key: string, { offset, limit }: Page): Promise<string[]> {
    return (await client.sort(key, 'BY', 'nosort', 'LIMIT', offset, limit)) as string[];
  },

  /** Hashes have no ranged read: HSCAN from the start, skipping `offset` fields. */
  async hash(client: StoreClient, key: string, { offset, limit }: Page): Promise<Array<{ field: string; value: string }>> {
    const seen = new Map<string, string>();
    let cursor = '0';
    do {
      const [next, flat] = await client.hscan(key, cursor, 'COUNT', 1000);
      for (let at = 0; at < flat.length; at += 2) if (!seen.has(flat[at]!)) seen.set(flat[at]!, flat[at + 1]!);
      cursor = next;
    } while (cursor !== '0' && seen.size < offset + limit);
    return [...seen].slice(offset, offset + limit).map(([field, value]) => ({ field, value }));
  },

  async stream(client: StoreClient, key: string, { offset, limit }: Page): Promise<Array<{ id: string; fields: Record<string, string> }>> {
    const entries = (await client.xrange(key, '-', '+', 'COUNT', offset + limit)) as Array<[string, string[]]>;
    return entries.slice(offset).map(([id, flat]) => {
      const fields: Record<string, string> = {};
      for (let at = 0; at < flat.length; at += 2) fields[flat[at]!] = flat[at + 1]!;
      return { id, fields };
    });
  },
};

export const sizeCommands = { string: 'strlen', hash: 'hlen', list: 'llen', set: 'scard', zset: 'zcard', stream: 'xlen' } as const;
