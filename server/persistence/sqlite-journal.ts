/**
 * Embedded mode's journal. better-sqlite3 runs every statement on the event loop, so whatever a
 * commit waits for, every request in flight waits for too. SQLite's defaults (a rollback journal,
 * `synchronous = FULL`) make each commit create, sync and delete a journal file and sync the
 * database: several fsyncs, 5–50 ms each on a shared disk, measured holding the loop at every lease
 * renewal, audit row and history slice. In write-ahead-log mode with `synchronous = NORMAL` a commit
 * appends to the log and syncs nothing; the log is synced when it is checkpointed into the database.
 * A killed process loses no committed transaction (the log is in the kernel's cache and replayed on
 * the next open); only a power cut or kernel crash can drop the last commits before a checkpoint.
 */
interface QueryConnection {
  executeQuery(query: { sql: string; parameters: readonly unknown[] }): Promise<unknown>;
}

// Kysely's SQLite driver runs `{ sql, parameters }` as it is (the shape of its CompiledQuery).
const pragma = (sql: string) => ({ sql, parameters: [] as const, query: { kind: 'RawNode' } });

/** `journal_mode` is stored in the file (once set, every later connection finds it); `synchronous` is per connection. */
export async function useWriteAheadLog(connection: QueryConnection): Promise<void> {
  await connection.executeQuery(pragma('PRAGMA journal_mode = WAL'));
  await connection.executeQuery(pragma('PRAGMA synchronous = NORMAL'));
}
