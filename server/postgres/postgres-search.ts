import type { JobStatus } from '../../contracts/jobs.js';
import type { ParsedJobKey } from '../bullmq/job-key.js';
import type { ChunkFrom, JobFieldValues, StatusChunk } from '../bullmq/search-reads.js';
import { keyByStatus } from '../bullmq/status-keys.js';
import { jobHashFromRow, statusQueries, type Db, type JobRow } from './bullmq-schema.js';

/**
 * A job search's reads on BullMQ's PostgreSQL backend (the Redis forms are
 * server/bullmq/search-reads.ts): a status in the order its page uses, newest
 * first, read by keyset after the anchor (no offset scan), and a few fields of
 * each job as the Redis hash would hold them (jobHashFromRow). Every column is
 * in bullmq-schema.ts's `readColumns`.
 */

/** The job columns behind each hash field the search reads (`parent` is two). */
const columnsByField: Record<string, readonly (keyof JobRow)[]> = {
  name: ['name'],
  data: ['data'],
  opts: ['opts'],
  priority: ['priority'],
  delay: ['delay_ms'],
  atm: ['attempts_made'],
  ats: ['attempts_started'],
  progress: ['progress'],
  returnvalue: ['return_value'],
  failedReason: ['failed_reason'],
  stacktrace: ['stacktrace'],
  pb: ['processed_by'],
  timestamp: ['added_at_ms'],
  processedOn: ['processed_at_ms'],
  finishedOn: ['finished_at_ms'],
  deid: ['dedup_id'],
  rjk: ['scheduler_id'],
  parentKey: ['parent_key'],
  parent: ['parent_id', 'parent_queue'],
};

async function isPaused(db: Db, queue: string): Promise<boolean> {
  const { rows } = await db.query<{ paused: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM meta WHERE queue = $1 AND field = 'paused' AND value IN ('1', 'true')) AS paused`,
    [queue],
  );
  return rows[0]!.paused === true;
}

/**
 * A paused queue keeps its jobs `waiting` here (a meta flag): they are its
 * `paused` status, as the list and the counts say (postgres-queue-reads.ts),
 * and `waiting` is then empty; unpaused, `paused` is empty.
 */
async function statusEmptyNow(db: Db, queue: string, status: JobStatus): Promise<boolean> {
  if (status !== 'waiting' && status !== 'paused') return false;
  return (await isPaused(db, queue)) !== (status === 'paused');
}

export async function statusChunk(
  db: Db,
  queue: string,
  status: JobStatus,
  from: ChunkFrom,
  size: number,
): Promise<StatusChunk> {
  const gone = from.anchor !== undefined;
  if (await statusEmptyNow(db, queue, status)) return { start: from.offset, ids: [], anchorGone: gone };
  const { where, order } = statusQueries[keyByStatus[status]]!;
  const descending = order
    .split(', ')
    .map((column) => `${column} DESC`)
    .join(', ');
  if (from.anchor !== undefined) {
    // Rows after the anchor in the status's order (a row comparison on the order's columns, unique by seq).
    const { rows } = await db.query<{ ahead: string; ids: string[] | null }>(
      `WITH a AS (SELECT ${order} FROM job WHERE queue = $1 AND id = $2 AND ${where})
       SELECT (SELECT COUNT(*) FROM job WHERE queue = $1 AND ${where} AND (${order}) > (SELECT ${order} FROM a)) AS ahead,
              (SELECT array_agg(id) FROM (SELECT id FROM job WHERE queue = $1 AND ${where} AND (${order}) < (SELECT ${order} FROM a)
                ORDER BY ${descending} LIMIT $3) n) AS ids
        WHERE EXISTS (SELECT 1 FROM a)`,
      [queue, from.anchor, size],
    );
    if (rows[0]) return { start: Number(rows[0].ahead) + 1, ids: rows[0].ids ?? [], anchorGone: false };
  }
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM job WHERE queue = $1 AND ${where} ORDER BY ${descending} OFFSET $2 LIMIT $3`,
    [queue, from.offset, size],
  );
  return { start: from.offset, ids: rows.map((row) => row.id), anchorGone: gone };
}

/** The fields of each job as its Redis hash would hold them (HMGET's shape); only their columns are read. */
export async function jobFields(
  db: Db,
  queue: string,
  ids: readonly string[],
  fields: readonly string[],
): Promise<JobFieldValues> {
  const columns = [...new Set(fields.flatMap((field) => columnsByField[field] ?? []))];
  const { rows } = await db.query<JobRow>(
    `SELECT ${['id', ...columns].join(', ')} FROM job WHERE queue = $1 AND id = ANY($2::text[])`,
    [queue, ids],
  );
  const byId = new Map(rows.map((row) => [String(row.id), jobHashFromRow(row)]));
  return ids.map((id) => {
    const hash = byId.get(id);
    return fields.map((field) => hash?.[field] ?? null);
  });
}

/**
 * A flow key as this backend writes it (`<queue>:<id>`: queue names and ids
 * hold no ':'), or as the detail shows it (`<schema>:<queue>:<id>`), read as
 * the latter so every job ref has one shape.
 */
export function parsePostgresJobKey(schema: string, key: string): ParsedJobKey {
  const cut = key.lastIndexOf(':');
  const id = key.slice(cut + 1);
  const head = cut < 0 ? '' : key.slice(0, cut);
  const queueName = head.startsWith(`${schema}:`) ? head.slice(schema.length + 1) : head;
  if (queueName === '' || queueName.includes(':')) return { id, queueName: null, prefix: null, key };
  return { id, queueName, prefix: schema, key: `${schema}:${queueName}:${id}` };
}

/** The name of the job a key names; null when there is none. */
export async function jobNameAt(db: Db, schema: string, key: string): Promise<string | null> {
  const parsed = parsePostgresJobKey(schema, key);
  if (parsed.queueName === null) return null;
  const { rows } = await db.query<{ name: string }>(`SELECT name FROM job WHERE queue = $1 AND id = $2`, [
    parsed.queueName,
    parsed.id,
  ]);
  return rows[0]?.name ?? null;
}
