import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { AbstractSqlDriver, SqlEntityManager } from '@mikro-orm/sql';
import type { Pool } from 'pg';
import type { Config, DatabaseLimits } from '../config.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';
import { oneAtATime, type LockPool } from './migration-lock.js';
import { patchPool } from './pg-pool.js';
import { retryWhileBusy, splitBudget, sqliteBusyTimeoutMs } from './database-limits.js';
import { useWriteAheadLog } from './sqlite-journal.js';

export type Orm = MikroORM<AbstractSqlDriver>;
export type EntityManager = SqlEntityManager;

export const embeddedDatabaseFile = 'bullpen.sqlite';

/** `bounded`: the limits requests run under; unbounded for migrations at startup. */
type Limits = DatabaseLimits | 'unbounded';

/** Loads only the driver the mode uses: the other one would cost memory for nothing. */
async function driverOptions(
  persistence: Config['persistence'],
  limits: Limits,
): Promise<Partial<Options<AbstractSqlDriver>>> {
  if (persistence.mode === 'embedded') {
    const { SqliteDriver } = await import('@mikro-orm/sqlite');
    const dbName = path.join(persistence.directory, embeddedDatabaseFile);
    if (limits === 'unbounded') return { driver: SqliteDriver, dbName };
    return {
      driver: SqliteDriver,
      dbName,
      driverOptions: { timeout: sqliteBusyTimeoutMs },
      onCreateConnection: async (connection: Parameters<typeof useWriteAheadLog>[0]) => {
        await useWriteAheadLog(connection);
        retryWhileBusy(connection, limits.timeoutMs);
      },
    } as Partial<Options<AbstractSqlDriver>>;
  }
  const { PostgreSqlDriver } = await import('@mikro-orm/postgresql');
  if (limits === 'unbounded') {
    // Two connections: the migrator's, and the one holding the migration lock (migration-lock.ts).
    return {
      driver: PostgreSqlDriver,
      clientUrl: persistence.databaseUrl,
      pool: { min: 0, max: 2 },
      driverOptions: { connectionTimeoutMillis: 5000 },
    };
  }
  const budget = splitBudget(limits);
  return {
    driver: PostgreSqlDriver,
    clientUrl: persistence.databaseUrl,
    pool: { min: 0, max: limits.poolSize },
    driverOptions: {
      // The acquire timeout (pg-pool applies it to waiting for a pooled client, too).
      connectionTimeoutMillis: budget.acquireMs,
      statement_timeout: budget.statementMs,
      lock_timeout: budget.statementMs,
      query_timeout: budget.readMs,
      onPoolCreated: (pool: Pool) => patchPool(pool, limits),
    },
  } as Partial<Options<AbstractSqlDriver>>;
}

async function initOrm(
  persistence: Config['persistence'],
  limits: Limits,
  log: (message: string) => void,
): Promise<Orm> {
  return MikroORM.init<AbstractSqlDriver>({
    ...(await driverOptions(persistence, limits)),
    entities: [...entities],
    extensions: [Migrator],
    // No snapshot files: migrations are hand-written for both databases.
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
    allowGlobalContext: false,
    debug: false,
    logger: log,
  });
}

export interface OpenOrmOptions<T> {
  /** The ORM's debug log. */
  log: (message: string) => void;
  /** Said when another instance is migrating and this one waits for it. */
  onWait: () => void;
  /** First-start work after the migrations (rows every instance needs, made once), on the migrating connection. */
  prepare: (em: EntityManager) => Promise<T>;
}

/**
 * Applies pending migrations and runs `prepare` on a connection of their own,
 * without the request limits (a migration may rightly wait for locks or run
 * long), one instance at a time (migration-lock.ts); then opens the database
 * the requests use, with every wait bounded.
 */
export async function openOrm<T>(
  persistence: Config['persistence'],
  limits: DatabaseLimits,
  options: OpenOrmOptions<T>,
): Promise<{ orm: Orm; prepared: T }> {
  const migrating = await initOrm(persistence, 'unbounded', options.log);
  let prepared: T;
  try {
    const pool = () =>
      (migrating.em.getConnection() as unknown as { getNativeClient(): Promise<LockPool> }).getNativeClient();
    prepared = await oneAtATime({ mode: persistence.mode, pool, onWait: options.onWait }, async () => {
      await migrating.migrator.up();
      return options.prepare(migrating.em.fork());
    });
  } finally {
    await migrating.close();
  }
  // The SQLite file holds password hashes and sealed URLs: the service's user only.
  if (persistence.mode === 'embedded') await chmod(path.join(persistence.directory, embeddedDatabaseFile), 0o600);
  const orm = await initOrm(persistence, limits, options.log);
  // MikroORM connects on the first query; health's checkConnection() counts a never-used ORM as not connected.
  await orm.connect();
  return { orm, prepared };
}
