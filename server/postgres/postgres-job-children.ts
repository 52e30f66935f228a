import type { JobChildrenRead } from '../bullmq/read-job-children.js';
import type { Db } from './bullmq-schema.js';
import { refsOf } from './postgres-job-reads.js';

/** Redis's order of a parent's children (pending, processed, failed, ignored), by BullMQ's PostgreSQL `dep_status`. */
const statusOrder = `CASE status WHEN 'pending' THEN 0 WHEN 'processed' THEN 1 WHEN 'failed' THEN 2 ELSE 3 END`;

/**
 * A flow parent's children on PostgreSQL: counts by status and up to `limit`
 * child keys in one statement on `job_dependency`'s parent index, then their
 * names and states in one more (refsOf), as Redis-shaped refs
 * (`<schema>:<queue>:<id>`) so the tree reads them as it reads Redis's.
 */
export async function jobChildren(
  db: Db,
  schema: string,
  queue: string,
  id: string,
  limit: number,
): Promise<JobChildrenRead> {
  const { rows } = await db.query<{ counts: Record<string, number> | null; keys: string[] | null }>(
    `SELECT (SELECT json_object_agg(status, n) FROM (SELECT status, COUNT(*) AS n FROM job_dependency
               WHERE parent_queue = $1 AND parent_id = $2 GROUP BY status) s) AS counts,
            (SELECT json_agg(child_key) FROM (SELECT child_key FROM job_dependency
               WHERE parent_queue = $1 AND parent_id = $2 ORDER BY ${statusOrder}, child_key LIMIT $3) c) AS keys`,
    [queue, id, limit],
  );
  const counts = rows[0]?.counts ?? {};
  return {
    counts: {
      processed: Number(counts.processed ?? 0),
      unprocessed: Number(counts.pending ?? 0),
      failed: Number(counts.failed ?? 0),
      ignored: Number(counts.ignored ?? 0),
    },
    children: await refsOf(db, schema, rows[0]?.keys ?? []),
  };
}
