import path from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { AbstractSqlDriver, SqlEntityManager } from '@mikro-orm/sql';
import type { Config } from '../config.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';

export type Orm = MikroORM<AbstractSqlDriver>;
export type EntityManager = SqlEntityManager;

export const embeddedDatabaseFile = 'bullpen.sqlite';

/** Loads only the driver the mode uses: the other one would cost memory for nothing. */
async function driverOptions(persistence: Config['persistence']): Promise<Partial<Options<AbstractSqlDriver>>> {
  if (persistence.mode === 'embedded') {
    const { SqliteDriver } = await import('@mikro-orm/sqlite');
    return { driver: SqliteDriver, dbName: path.join(persistence.directory, embeddedDatabaseFile) };
  }
  const { PostgreSqlDriver } = await import('@mikro-orm/postgresql');
  return {
    driver: PostgreSqlDriver,
    clientUrl: persistence.databaseUrl,
    pool: { min: 0, max: 10 },
    // Fail fast when the database is unreachable instead of queueing requests.
    driverOptions: { connectionTimeoutMillis: 2000 },
  };
}

/** Opens the database of the configured persistence mode and applies pending migrations. */
export async function openOrm(persistence: Config['persistence'], log: (message: string) => void): Promise<Orm> {
  const options: Partial<Options<AbstractSqlDriver>> = {
    ...(await driverOptions(persistence)),
    entities: [...entities],
    extensions: [Migrator],
    // No snapshot files: migrations are hand-written for both databases.
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
    allowGlobalContext: false,
    debug: false,
    logger: log,
  };
  const orm = await MikroORM.init<AbstractSqlDriver>(options);
  await orm.migrator.up();
  return orm;
}
