import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveColumns, moveFunctions } from '../../server/postgres/move-job-sql.js';
import { journalTableSql } from '../../server/postgres/move-journal.js';
import { migrateBullmqSchema } from '../helpers/postgres-queues.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * What a move reads and calls of BullMQ's PostgreSQL schema (server/postgres/move-job-sql.ts),
 * held against BullMQ's own migrations from the installed package: a release that renames a
 * column or changes a function's arguments fails here, not in a move.
 */
describe("the bullmq schema a move uses, as BullMQ's migrations create it", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateBullmqSchema(database.url);
  });
  afterAll(() => database.drop());

  it('has every table and column a move reads or writes', async () => {
    const rows = await queryDatabase<{ table_name: string; column_name: string }>(
      database.url,
      `select table_name, column_name from information_schema.columns where table_schema = 'bullmq'`,
    );
    const present = new Set(rows.map((row) => `${row.table_name}.${row.column_name}`));
    const used = Object.entries(moveColumns).flatMap(([table, columns]) =>
      columns.map((column) => `${table}.${column}`),
    );
    expect(used.filter((column) => !present.has(column))).toEqual([]);
  });

  it('has every function a move calls, with the arguments it passes', async () => {
    const rows = await queryDatabase<{ name: string; args: number }>(
      database.url,
      `select p.proname as name, p.pronargs::int as args from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'bullmq'`,
    );
    for (const [name, args] of Object.entries(moveFunctions))
      expect(
        rows.some((row) => row.name === name && row.args === args),
        name,
      ).toBe(true);
  });

  it('documents the journal table as the service creates it (docs/api.md, for a DBA to create ahead)', () => {
    const api = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
    const block = /```sql\n(CREATE TABLE IF NOT EXISTS bullpen_move_journal[\s\S]*?)```/.exec(api)?.[1];
    const bare = (sql: string) => sql.replace(/\s+/g, '').replace(/;$/, '');
    expect(bare(block ?? '')).toBe(bare(journalTableSql));
  });
});
