import type pg from 'pg';

/**
 * The tables of BullMQ's PostgreSQL backend (the `bullmq` schema its
 * migrations create) that the schema-*.ts reads use, for what BullMQ's API
 * makes too slow or cannot make (several queues at once, a page with its
 * total). Every table and column they read is listed in `readColumns`, which
 * test/postgres/bullmq-schema.test.ts holds against BullMQ's own migrations:
 * a release that renames one fails that test, not a request. Writes go
 * through BullMQ's Queue and Job API, never here.
 */
export const readColumns = {
  migration: ['version', 'min_client_version'],
  meta: ['queue', 'field', 'value'],
  job: [
    'queue',
    'id',
    'seq',
    'name',
    'state',
    'data',
    'opts',
    'priority',
    'delay_ms',
    'attempts_made',
    'attempts_started',
    'progress',
    'return_value',
    'failed_reason',
    'stacktrace',
    'processed_by',
    'added_at_ms',
    'process_at_ms',
    'processed_at_ms',
    'finished_at_ms',
    'dedup_id',
    'scheduler_id',
    'parent_queue',
    'parent_id',
    'parent_key',
  ],
  job_log: ['queue', 'job_id', 'idx', 'row'],
  job_dependency: ['parent_queue', 'parent_id', 'child_key', 'status'],
} as const;

export type Db = Pick<pg.Pool, 'query'>;

export type JobRow = Record<(typeof readColumns.job)[number], unknown>;

/** Every job column read, qualified by the alias `j`. */
export const jobColumns = readColumns.job.map((column) => `j.${column}`).join(', ');
