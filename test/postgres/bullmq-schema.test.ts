import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from 'bullmq';
import pg from 'pg';
import { readColumns } from '../../server/postgres/bullmq-schema.js';
import { migrateBullmqSchema } from '../helpers/postgres-queues.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * The tables and columns server/postgres/bullmq-schema.ts reads, held
 * against BullMQ's own migrations from the installed package on a fresh
 * database: a BullMQ release that renames or drops one fails here.
 */
describe("the bullmq schema our SQL reads, as BullMQ's migrations create it", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it.each(['bullmq', 'tenant_jobs'])('has every table and column we read in schema %s', async (schema) => {
    expect(await migrateBullmqSchema(database.url, schema)).toBe(LATEST_SCHEMA_VERSION);
    const rows = await queryDatabase<{ table_name: string; column_name: string }>(
      database.url,
      'select table_name, column_name from information_schema.columns where table_schema = $1',
      [schema],
    );
    const present = new Set(rows.map((row) => `${row.table_name}.${row.column_name}`));
    const read = Object.entries(readColumns).flatMap(([table, columns]) =>
      columns.map((column) => `${table}.${column}`),
    );
    expect(read.filter((column) => !present.has(column))).toEqual([]);
  });

  it('reads job states BullMQ defines', async () => {
    const rows = await queryDatabase<{ label: string }>(
      database.url,
      `select e.enumlabel as label from pg_enum e join pg_type t on t.oid = e.enumtypid join pg_namespace n on n.oid = t.typnamespace where t.typname = 'job_state' and n.nspname = 'bullmq'`,
    );
    expect(rows.map((row) => row.label).sort()).toEqual([
      'active',
      'completed',
      'delayed',
      'failed',
      'waiting',
      'waiting-children',
    ]);
  });

  it('queries as the store does (search_path pinned) without error on an empty schema', async () => {
    const { queueFigures, queueNames, jobPage, jobWithRelations, jobLogs, schemaState } = await import(
      '../../server/postgres/bullmq-schema.js'
    );
    const pool = new pg.Pool({ connectionString: database.url, options: '-c search_path="bullmq"' });
    try {
      expect(await queueNames(pool)).toEqual([]);
      expect((await queueFigures(pool, ['none'])).get('none')).toMatchObject({ waiting: 0, paused: false });
      for (const status of [
        'wait',
        'paused',
        'prioritized',
        'active',
        'delayed',
        'completed',
        'failed',
        'waiting-children',
      ]) {
        expect(await jobPage(pool, 'none', status, { start: 0, end: 9, oldestFirst: false })).toEqual({
          there: false,
          paused: false,
          total: 0,
          rows: [],
        });
      }
      expect(await jobWithRelations(pool, 'none', '1', 5)).toBeUndefined();
      expect(await jobLogs(pool, 'none', '1', 0, 9)).toBeUndefined();
      expect(await schemaState(pool)).toMatchObject({
        version: LATEST_SCHEMA_VERSION,
        serverVersion: expect.stringMatching(/^\d+/),
      });
    } finally {
      await pool.end();
    }
  });
});
