import { type Db, type JobRow, jobColumns } from './schema-columns.js';

/** One job's row, its log count and its children's counts by status (with up to `childLimit` child keys). */
export async function jobWithRelations(db: Db, queue: string, id: string, childLimit: number) {
  const { rows } = await db.query(
    `SELECT ${jobColumns},
            (SELECT COUNT(*) FROM job_log l WHERE l.queue = j.queue AND l.job_id = j.id) AS logs_count,
            (SELECT json_object_agg(status, n) FROM (SELECT status, COUNT(*) AS n FROM job_dependency d
              WHERE d.parent_queue = j.queue AND d.parent_id = j.id GROUP BY status) s) AS dependency_counts,
            (SELECT json_agg(child_key) FROM (SELECT child_key FROM job_dependency d
              WHERE d.parent_queue = j.queue AND d.parent_id = j.id ORDER BY child_key LIMIT $3) c) AS child_keys
       FROM job j WHERE j.queue = $1 AND j.id = $2`,
    [queue, id, childLimit],
  );
  const row = rows[0] as
    | (JobRow & { logs_count: string; dependency_counts: Record<string, number> | null; child_keys: string[] | null })
    | undefined;
  if (!row) return undefined;
  return {
    row,
    logsCount: Number(row.logs_count),
    dependencyCounts: row.dependency_counts ?? {},
    childKeys: row.child_keys ?? [],
  };
}

/** Name and state of jobs named by `<queue>:<id>` keys, for a detail's parent and children. */
export async function jobsByKey(
  db: Db,
  keys: readonly { queue: string; id: string }[],
): Promise<Array<{ name: string; state: string; priority: number } | undefined>> {
  if (keys.length === 0) return [];
  const { rows } = await db.query<{ queue: string; id: string; name: string; state: string; priority: number }>(
    `SELECT j.queue, j.id, j.name, j.state, j.priority FROM unnest($1::text[], $2::text[]) AS k(queue, id) JOIN job j ON j.queue = k.queue AND j.id = k.id`,
    [keys.map((key) => key.queue), keys.map((key) => key.id)],
  );
  return keys.map((key) => rows.find((row) => row.queue === key.queue && row.id === key.id));
}

/** Log lines [start, end] (oldest first) and their count; undefined when the job is not there. */
export async function jobLogs(db: Db, queue: string, id: string, start: number, end: number) {
  const { rows } = await db.query<{ count: string; lines: string[] | null }>(
    `SELECT (SELECT COUNT(*) FROM job_log WHERE queue = $1 AND job_id = $2) AS count,
            (SELECT array_agg(row ORDER BY idx) FROM (SELECT row, idx FROM job_log WHERE queue = $1 AND job_id = $2 ORDER BY idx OFFSET $3 LIMIT $4) l) AS lines
       FROM job WHERE queue = $1 AND id = $2`,
    [queue, id, start, end - start + 1],
  );
  return rows[0] ? { count: Number(rows[0].count), logs: rows[0].lines ?? [] } : undefined;
}
