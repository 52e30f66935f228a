import type { LargeCounts } from './large-counts.js';
import { type Db, type JobRow, jobColumns } from './schema-columns.js';
import { statusCount } from './schema-counts.js';

/** Which rows each status's page reads, in BullMQ's order for it (the Redis list or sorted set it stands for). */
const statusQueries: Record<string, { where: string; order: string }> = {
  wait: { where: `state = 'waiting' AND priority = 0`, order: 'seq' },
  paused: { where: `state = 'waiting' AND priority = 0`, order: 'seq' },
  prioritized: { where: `state = 'waiting' AND priority > 0`, order: 'priority, seq' },
  active: { where: `state = 'active'`, order: 'seq' },
  delayed: { where: `state = 'delayed'`, order: 'process_at_ms, seq' },
  completed: { where: `state = 'completed'`, order: 'finished_at_ms, seq' },
  failed: { where: `state = 'failed'`, order: 'finished_at_ms, seq' },
  'waiting-children': { where: `state = 'waiting-children'`, order: 'seq' },
};

/**
 * A page of a status ([start, end], newest first unless `oldestFirst`) and
 * the status's size: two index reads, never the whole status (a size past
 * `large`'s cap comes from `large`).
 */
export async function jobPage(
  db: Db,
  queue: string,
  status: string,
  range: { start: number; end: number; oldestFirst: boolean },
  large?: LargeCounts,
) {
  const { start, end, oldestFirst } = range;
  const query = statusQueries[status];
  if (!query) throw new Error(`unknown status ${status}`);
  const direction = oldestFirst ? 'ASC' : 'DESC';
  const order = query.order
    .split(', ')
    .map((column) => `${column} ${direction}`)
    .join(', ');
  const [count, page] = await Promise.all([
    statusCount(db, queue, query.where, large),
    db.query(
      `SELECT ${jobColumns} FROM job j WHERE queue = $1 AND ${query.where} ORDER BY ${order} OFFSET $2 LIMIT $3`,
      [queue, start, end - start + 1],
    ),
  ]);
  return { total: count, rows: page.rows as JobRow[] };
}

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
