import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { queryDatabase } from '../../helpers/postgres.js';

/**
 * Every key of a store that does not expire: its serialized value (DUMP)
 * hashed. Keys with a TTL (a worker's stalled-check lock) vanish on their
 * own, so they are left out; a request that sets a TTL on a kept key still
 * shows, as that key then goes missing.
 */
export async function snapshotRedis(redis: Redis, pattern = '*'): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const [dump, ttl] = await Promise.all([redis.dumpBuffer(key), redis.pttl(key)]);
      if (ttl === -1)
        snapshot[key] = createHash('sha256')
          .update(dump ?? '')
          .digest('hex');
    }
  } while (cursor !== '0');
  return snapshot;
}

/** Every row of every table of a Postgres database, rows sorted so order of reads does not matter. */
export async function snapshotDatabase(url: string): Promise<Record<string, string[]>> {
  const tables = await queryDatabase<{ tablename: string }>(
    url,
    "select tablename from pg_tables where schemaname = 'public' order by tablename",
  );
  const snapshot: Record<string, string[]> = {};
  for (const { tablename } of tables) {
    const rows = await queryDatabase(url, `select * from "${tablename}"`);
    snapshot[tablename] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

/** Keys (or tables) whose content differs between two snapshots, for a readable failure. */
export function changedEntries<T>(before: Record<string, T>, after: Record<string, T>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name])).sort();
}
