import type { JobHash } from '../bullmq/job-hash.js';
import type { JobRow } from './schema-columns.js';

const text = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);
const stringified = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : JSON.stringify(value);

/**
 * A job row as the job hash BullMQ keeps on Redis (field → text), so one
 * decoding serves both kinds. `json`: how the row holds its jsonb columns,
 * parsed by pg (the default) or read as `::text` (kept as they are).
 */
export function jobHashFromRow(row: JobRow, json: 'parsed' | 'text' = 'parsed'): JobHash {
  const jsonText = json === 'text' ? text : stringified;
  const hash: JobHash = {
    name: text(row.name),
    data: jsonText(row.data),
    opts: jsonText(row.opts),
    priority: text(row.priority),
    delay: text(row.delay_ms),
    atm: text(row.attempts_made),
    ats: text(row.attempts_started),
    progress: jsonText(row.progress),
    returnvalue: jsonText(row.return_value),
    failedReason: text(row.failed_reason),
    stacktrace: jsonText(row.stacktrace),
    pb: text(row.processed_by),
    timestamp: text(row.added_at_ms),
    processedOn: text(row.processed_at_ms),
    finishedOn: text(row.finished_at_ms),
    deid: text(row.dedup_id),
    rjk: text(row.scheduler_id),
    parentKey: text(row.parent_key),
    parent:
      row.parent_id === null || row.parent_id === undefined
        ? undefined
        : JSON.stringify({ id: row.parent_id, queueKey: row.parent_queue }),
  };
  for (const field of Object.keys(hash)) if (hash[field] === undefined) delete hash[field];
  return hash;
}
