import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from 'bullmq';
import pg from 'pg';
import { readColumns } from '../../server/postgres/bullmq-schema.js';
import { eventColumns } from '../../server/postgres/postgres-event-feed.js';
import { jobStatuses } from '../../contracts/jobs.js';
import { readableJobFields } from '../../contracts/job-fields.js';
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
    const read = Object.entries({ ...readColumns, ...eventColumns }).flatMap(([table, columns]) =>
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
      const { failuresPage, finishedJobsSince, latenciesSince } = await import(
        '../../server/postgres/postgres-finished-reads.js'
      );
      const window = { from: 0, upper: Date.now(), skip: 0, limit: 10 };
      expect(await failuresPage(pool, 'none', window)).toEqual({ scores: [], jobs: [] });
      expect(await finishedJobsSince(pool, 'none', 'completed', 0, 10)).toEqual({ inWindow: 0, jobs: [] });
      expect(await latenciesSince(pool, [{ ref: { prefix: 'bullmq', name: 'none' }, finished: 1 }], 0)).toEqual([
        { jobs: 0, processingMs: null, waitMs: null },
      ]);
      const { jobChildren } = await import('../../server/postgres/postgres-job-children.js');
      expect((await jobChildren(pool, 'bullmq', 'none', '1', 5)).children).toEqual([]);
      const { cappedJobDetail } = await import('../../server/postgres/postgres-job-detail.js');
      expect(await cappedJobDetail(pool, 'none', '1', 5, 1024)).toBeUndefined();
      const { replaceStacktraces } = await import('../../server/postgres/postgres-job-writes.js');
      expect(await replaceStacktraces(pool, 'none', '1', [])).toBe(false);
      expect(await schemaState(pool)).toMatchObject({
        version: LATEST_SCHEMA_VERSION,
        serverVersion: expect.stringMatching(/^\d+/),
      });
    } finally {
      await pool.end();
    }
  });

  it("runs the search's, refs' and field reads (server/postgres/postgres-search.ts, postgres-job-field.ts)", async () => {
    const { statusChunk, jobFields, jobNameAt } = await import('../../server/postgres/postgres-search.js');
    const { readField } = await import('../../server/postgres/postgres-job-field.js');
    const pool = new pg.Pool({ connectionString: database.url, options: '-c search_path="bullmq"' });
    try {
      for (const status of jobStatuses) {
        for (const from of [{ offset: 0 }, { offset: 3, anchor: '1' }])
          expect(await statusChunk(pool, 'none', status, from, 10), status).toMatchObject({ ids: [] });
      }
      const fields = ['name', 'data', 'opts', 'atm', 'timestamp', 'finishedOn', 'parent', 'failedReason'];
      expect(await jobFields(pool, 'none', ['1'], fields)).toEqual([fields.map(() => null)]);
      expect(await jobNameAt(pool, 'bullmq', 'none:1')).toBeNull();
      const options = (field: string) => ({ queueName: 'meta-only', jobId: '1', field, offset: 0, length: 10 });
      expect(await readField(pool, 'bullmq', { ...options('data'), prefixes: ['bullmq'] })).toEqual({
        found: 'queue-missing',
      });
      // A queue known by its meta alone (as a producer leaves it): the field's statement runs, and finds no job.
      await pool.query(`INSERT INTO meta (queue, field, value) VALUES ('meta-only', 'version', 'bullmq:6')`);
      for (const field of readableJobFields)
        expect(await readField(pool, 'bullmq', { ...options(field), prefixes: ['bullmq'] }), field).toEqual({
          found: 'job-missing',
        });
    } finally {
      await pool.end();
    }
  });
});
