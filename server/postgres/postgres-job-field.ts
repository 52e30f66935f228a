import type { JobFieldRead, ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import { existingQueues, type Db } from './bullmq-schema.js';

/** The column behind each readable job field; JSON columns are read as PostgreSQL's text of the jsonb value. */
const columnByField: Record<string, { column: string; json: boolean }> = {
  data: { column: 'data', json: true },
  returnvalue: { column: 'return_value', json: true },
  opts: { column: 'opts', json: true },
  stacktrace: { column: 'stacktrace', json: true },
  failedReason: { column: 'failed_reason', json: false },
  progress: { column: 'progress', json: true },
};

/**
 * Bytes [offset, offset + length) of one job field on PostgreSQL, as the
 * Redis script reads them (server/bullmq/read-job-field.ts): the end moved
 * back so no UTF-8 character is cut, with the field's whole length. The
 * range is cut in the database (one byte past it, to see where a character
 * starts): only it crosses the network, whatever the value's size.
 */
export async function readField(db: Db, schema: string, options: ReadJobFieldOptions): Promise<JobFieldRead> {
  if (!options.prefixes.includes(schema) || !(await existingQueues(db, [options.queueName])).has(options.queueName))
    return { found: 'queue-missing' };
  const { column, json } = columnByField[options.field] ?? { column: '', json: false };
  if (!column) return { found: 'field-missing' };
  const value = json ? `${column}::text` : column;
  const { rows } = await db.query<{ total: number | null; bytes: Buffer | null }>(
    `SELECT octet_length(convert_to(${value}, 'UTF8')) AS total,
            substring(convert_to(${value}, 'UTF8') FROM $3 + 1 FOR $4 + 1) AS bytes
       FROM job WHERE queue = $1 AND id = $2`,
    [options.queueName, options.jobId, options.offset, options.length],
  );
  const row = rows[0];
  if (!row) return { found: 'job-missing' };
  if (row.total === null || row.bytes === null) return { found: 'field-missing' };
  const total = Number(row.total);
  let last = Math.min(total, options.offset + options.length);
  // A continuation byte (10xxxxxx) at the cut means a character goes on: end before it starts.
  while (last > options.offset && last < total && (row.bytes[last - options.offset]! & 0xc0) === 0x80) last -= 1;
  const bytes = row.bytes.subarray(0, Math.max(0, last - options.offset));
  return { found: 'field', totalLength: total, text: bytes.toString('utf8'), bytes: bytes.length };
}
