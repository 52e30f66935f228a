import { readColumns, type Db, type JobRow } from './bullmq-schema.js';

/** A job's fields that may be large, as the hash fields they stand for (Redis's names, for `fieldBytes`). */
const largeColumns = {
  data: 'data',
  opts: 'opts',
  return_value: 'returnvalue',
  stacktrace: 'stacktrace',
  progress: 'progress',
  failed_reason: 'failedReason',
  name: 'name',
} as const;
/** A field this large is named in a refusal (as the Redis script names them). */
const namedFieldBytes = 1024;

/** jsonb columns, read as PostgreSQL's own JSON text: the hash's text with no parse in pg and no JSON.stringify after. */
const jsonColumns = ['data', 'opts', 'return_value', 'stacktrace', 'progress'] as const;
const isJson = (column: string) => (jsonColumns as readonly string[]).includes(column);

/** The text of each large column, computed once (the size and the answer share it) in the lateral `t`. */
const textsLateral = `CROSS JOIN LATERAL (SELECT ${jsonColumns.map((column) => `j.${column}::text AS ${column}`).join(', ')} OFFSET 0) t`;
const textOf = (column: string) => (isJson(column) ? `t.${column}` : `j.${column}`);
const sizeOf = (column: string) => `octet_length(COALESCE(${textOf(column)}, ''))`;
const bytesExpression = Object.keys(largeColumns).map(sizeOf).join(' + ');
const sizesExpression = `json_build_object(${Object.entries(largeColumns)
  .map(([column, field]) => `'${field}', ${sizeOf(column)}`)
  .join(', ')})`;
/**
 * The job's columns as one JSON object, the large ones only when the job is
 * within the cap (`maxBytes`: an SQL expression): one field for the driver
 * to describe and parse, not 25.
 */
const cappedJob = (maxBytes: string) =>
  `json_build_object(${readColumns.job
    .map(
      (column) =>
        `'${column}', ${column in largeColumns ? `CASE WHEN s.bytes <= ${maxBytes} THEN ${textOf(column)} END` : `j.${column}`}`,
    )
    .join(', ')})`;

/** What one detail read takes, as SQL expressions: parameters ($1…) alone, or columns of a batch's `unnest`. */
export interface DetailTerms {
  queue: string;
  id: string;
  childLimit: string;
  maxBytes: string;
}

/** The statement reading one job's detail (at most one row, one JSON column `detail`). */
export const detailStatement = ({ queue, id, childLimit, maxBytes }: DetailTerms) =>
  `SELECT json_build_object('bytes', s.bytes, 'sizes', CASE WHEN s.bytes > ${maxBytes} THEN ${sizesExpression} END,
            'job', ${cappedJob(maxBytes)},
            'logs_count', (SELECT COUNT(*) FROM job_log l WHERE l.queue = j.queue AND l.job_id = j.id),
            'dependency_counts', (SELECT json_object_agg(status, n) FROM (SELECT status, COUNT(*) AS n FROM job_dependency d
              WHERE d.parent_queue = j.queue AND d.parent_id = j.id GROUP BY status) c),
            'child_keys', (SELECT json_agg(child_key) FROM (SELECT child_key FROM job_dependency d
              WHERE d.parent_queue = j.queue AND d.parent_id = j.id ORDER BY child_key LIMIT ${childLimit}) k)) AS detail
       FROM job j ${textsLateral}
            CROSS JOIN LATERAL (SELECT ${bytesExpression} AS bytes OFFSET 0) s
      WHERE j.queue = ${queue} AND j.id = ${id}`;

const oneDetail = detailStatement({ queue: '$1', id: '$2', childLimit: '$3', maxBytes: '$4' });

export type CappedJobRead =
  | undefined
  | { found: 'too-big'; bytes: number; fieldBytes: Record<string, number> }
  | {
      found: 'job';
      row: JobRow;
      logsCount: number;
      dependencyCounts: Record<string, number>;
      childKeys: string[];
    };

/**
 * A job's detail read in one statement, as the Redis detail script reads
 * it: the job's size first (its large fields as the text BullMQ keeps:
 * jsonb's own JSON text, a few bytes longer than JSON.stringify's), and over
 * `maxBytes` only that size and its fields of 1 KiB or more, never the job
 * (the caller answers 422 RESPONSE_TOO_LARGE naming the field route);
 * otherwise the row (its jsonb columns as that text: `jobHashFromRow(row,
 * 'text')`; its numbers as JSON numbers), its log count and its children's
 * counts and first keys, all in one JSON column.
 */
export async function cappedJobDetail(
  db: Db,
  queue: string,
  id: string,
  childLimit: number,
  maxBytes: number,
): Promise<CappedJobRead> {
  // Named, so each pooled session plans this long statement once.
  const { rows } = await db.query({
    name: 'bullpen-capped-job-detail',
    text: oneDetail,
    values: [queue, id, childLimit, maxBytes],
  });
  return cappedRead(rows[0]?.detail);
}

/** A detail row as read: the job, or its size when it is over the cap; undefined when there is no such job. */
export function cappedRead(detail: unknown): CappedJobRead {
  const row = detail as
    | {
        bytes: number;
        sizes: Record<string, number> | null;
        job: JobRow;
        logs_count: number;
        dependency_counts: Record<string, number> | null;
        child_keys: string[] | null;
      }
    | undefined;
  if (!row) return undefined;
  if (row.sizes) {
    const fieldBytes = Object.fromEntries(Object.entries(row.sizes).filter(([, bytes]) => bytes >= namedFieldBytes));
    return { found: 'too-big', bytes: Number(row.bytes), fieldBytes };
  }
  return {
    found: 'job',
    row: row.job,
    logsCount: Number(row.logs_count),
    dependencyCounts: row.dependency_counts ?? {},
    childKeys: row.child_keys ?? [],
  };
}
