import type { Persistence } from '../persistence/persistence.js';
import { QueueDiscoveryScan, QueueIndexEntry } from '../persistence/entities/queue-index.js';
import type { QueueRef } from '../bullmq/queue-key.js';

/** The last finished scan of one prefix of a connection. */
export interface ScanRecord {
  prefix: string;
  scannedAt: Date;
  durationMs: number;
  complete: boolean;
  incompleteReason: string | null;
}

export interface PersistedIndex {
  refs: QueueRef[];
  scans: ScanRecord[];
}

export interface IndexChange {
  added: QueueRef[];
  removed: QueueRef[];
  scans: ScanRecord[];
}

/** Where the queue index outlives the process: the database, or nowhere (tests, a database that is down). */
export interface QueueIndexStore {
  /** What the last scans of these prefixes left; null when none of them was ever scanned. */
  load(connectionId: string, prefixes: readonly string[]): Promise<PersistedIndex | null>;
  save(connectionId: string, change: IndexChange): Promise<void>;
}

export const volatileIndexStore: QueueIndexStore = { load: async () => null, save: async () => undefined };

/** Rows per INSERT or DELETE … IN: well under SQLite's bound-parameter limit. */
const chunkSize = 500;

function chunks<T>(items: T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / chunkSize) }, (_, i) =>
    items.slice(i * chunkSize, (i + 1) * chunkSize),
  );
}

/** The index in the service's database (MikroORM, SQLite or PostgreSQL). */
export function databaseIndexStore(persistence: Persistence): QueueIndexStore {
  return {
    async load(connectionId, prefixes) {
      const em = persistence.fork();
      const scans = await em.find(
        QueueDiscoveryScan,
        { connectionId, prefix: { $in: [...prefixes] } },
        { disableIdentityMap: true },
      );
      if (scans.length === 0) return null;
      // Plain rows, not entities: 10,000 names hydrate in a few ms instead of a few hundred.
      const wanted = new Set(prefixes);
      const rows = await em
        .createQueryBuilder(QueueIndexEntry)
        .select(['prefix', 'name'])
        .where({ connectionId })
        .execute<Array<{ prefix: string; name: string }>>('all', false);
      return {
        refs: rows.filter((row) => wanted.has(row.prefix)).map((row) => ({ prefix: row.prefix, name: row.name })),
        scans: scans.map(({ prefix, scannedAt, durationMs, complete, incompleteReason }) => ({
          prefix,
          scannedAt,
          durationMs,
          complete,
          incompleteReason: incompleteReason ?? null,
        })),
      };
    },
    async save(connectionId, { added, removed, scans }) {
      await persistence.fork().transactional(async (em) => {
        for (const chunk of chunks(added))
          await em.insertMany(
            QueueIndexEntry,
            chunk.map((ref) => ({ connectionId, ...ref })),
          );
        for (const [prefix, names] of groupNames(removed)) {
          for (const chunk of chunks(names))
            await em.nativeDelete(QueueIndexEntry, { connectionId, prefix, name: { $in: chunk } });
        }
        if (scans.length === 0) return;
        await em.nativeDelete(QueueDiscoveryScan, { connectionId, prefix: { $in: scans.map((scan) => scan.prefix) } });
        await em.insertMany(
          QueueDiscoveryScan,
          scans.map((scan) => ({ connectionId, ...scan })),
        );
      });
    },
  };
}

function groupNames(refs: QueueRef[]): Map<string, string[]> {
  const byPrefix = new Map<string, string[]>();
  for (const ref of refs) {
    const names = byPrefix.get(ref.prefix);
    if (names) names.push(ref.name);
    else byPrefix.set(ref.prefix, [ref.name]);
  }
  return byPrefix;
}
