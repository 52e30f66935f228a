/**
 * Development aid for writing migrations: prints the CREATE statements the
 * current entities imply, for SQLite and for PostgreSQL.
 * Usage: npm run db:schema-sql -- postgres://postgres@127.0.0.1:5432/test
 */
import { MikroORM, type Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { SqliteDriver } from '@mikro-orm/sqlite';
import { entities } from './entities/index.js';

const postgresUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test';
const targets: Array<[string, Partial<Options>]> = [
  ['sqlite', { driver: SqliteDriver, dbName: ':memory:' }],
  ['postgresql', { driver: PostgreSqlDriver, clientUrl: postgresUrl }],
];
for (const [label, options] of targets) {
  const orm = await MikroORM.init({ ...options, entities: [...entities] } as Partial<Options>);
  console.log(`-- ${label}\n${await orm.schema.getCreateSchemaSQL({ wrap: false })}`);
  await orm.close();
}
