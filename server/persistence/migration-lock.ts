import { setTimeout as sleep } from 'node:timers/promises';
import type { PersistenceMode } from '../config.js';

/** The advisory lock every instance takes around its first-start work ("bullpen" as a 64-bit number). */
export const migrationLockKey = '27713656253867374';

/** How long an embedded process keeps retrying first-start work another process's lock made fail. */
const sqliteRetryBudgetMs = 10_000;

interface LockClient {
  query(sql: string, params: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  release(destroy?: boolean): void;
}

/** The pg pool of the migrating ORM (MikroORM's `getNativeClient()` on a PostgreSQL connection). */
export interface LockPool {
  connect(): Promise<LockClient>;
}

export interface FirstStartLock {
  mode: PersistenceMode;
  /** The migrating ORM's pool (server mode); it must allow one connection beyond what `work` uses. */
  pool?: () => Promise<LockPool>;
  /** Called once when another instance holds the lock and this one waits. */
  onWait(): void;
}

/**
 * Runs first-start work (migrations, the local organization) in one process
 * at a time, whatever the number of replicas starting together.
 *
 * PostgreSQL: a session-level advisory lock on a connection of its own, held
 * for the whole work (the migrator opens the tracking table before its
 * transaction, so a lock inside that transaction would come too late); the
 * second replica waits, then finds nothing pending. The connection is
 * destroyed afterwards, so the lock cannot outlive the work.
 *
 * SQLite (embedded mode is meant for one process, but two started on one data
 * directory must not break): the work runs in transactions and is idempotent,
 * so a process that met the other's lock (SQLITE_BUSY) or its finished rows
 * (a table that already exists, the local organization's unique slug) tries
 * again until it finds nothing to do.
 */
export async function oneAtATime<T>(lock: FirstStartLock, work: () => Promise<T>): Promise<T> {
  return lock.mode === 'server'
    ? withAdvisoryLock(await lock.pool!(), lock.onWait, work)
    : retryLostRaces(lock.onWait, work);
}

async function withAdvisoryLock<T>(pool: LockPool, onWait: () => void, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query('select pg_try_advisory_lock($1) as locked', [migrationLockKey]);
    if (!rows[0]?.locked) {
      onWait();
      await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
    }
    return await work();
  } finally {
    client.release(true);
  }
}

const lostRace = (error: unknown) =>
  /SQLITE_BUSY|database is locked|already exists|SQLITE_CONSTRAINT_UNIQUE/i.test(
    `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`,
  );

async function retryLostRaces<T>(onWait: () => void, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + sqliteRetryBudgetMs;
  for (let waited = false; ; ) {
    try {
      return await work();
    } catch (error) {
      if (!lostRace(error) || Date.now() > deadline) throw error;
      if (!waited) onWait();
      waited = true;
      await sleep(50 + Math.random() * 150);
    }
  }
}
