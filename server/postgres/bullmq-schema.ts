import type pg from 'pg';
import type { JobHash } from '../bullmq/job-hash.js';

/**
 * The one module that knows the tables of BullMQ's PostgreSQL backend (the
 * `bullmq` schema its migrations create), for the reads BullMQ's API makes
 * too slow or cannot make (several queues at once, a page with its total).
 * Every table and column read here is listed in `readColumns`, which
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

/** The eight counts of a queue as BullMQ's get_counts reads them (`paused`: the waiting ones while paused), and its pause flag. */
export interface QueueFigureRow {
  queue: string;
  paused: boolean;
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
  prioritized: number;
  waitingChildren: number;
}

/** The server's version and the schema's migration ledger (search_path is the schema): `version` null when there is no ledger. */
export async function schemaState(
  db: Db,
): Promise<{ serverVersion: string; version: number | null; minClientVersion: number | null }> {
  const { rows } = await db.query<{ server_version: string; present: boolean }>(
    `SELECT current_setting('server_version') AS server_version, to_regclass('migration') IS NOT NULL AS present`,
  );
  const serverVersion = rows[0]!.server_version;
  if (!rows[0]!.present) return { serverVersion, version: null, minClientVersion: null };
  const ledger = await db.query<{ version: number; min_client_version: number }>(
    `SELECT COALESCE(MAX(version), 0)::int AS version, COALESCE(MAX(min_client_version), 0)::int AS min_client_version FROM migration`,
  );
  return { serverVersion, version: ledger.rows[0]!.version, minClientVersion: ledger.rows[0]!.min_client_version };
}

/**
 * Queues exist once a producer wrote their meta (BullMQ's `version` field),
 * as on Redis, or hold a job (BullMQ's PostgreSQL producer writes its meta in
 * the background, so jobs may come first). The job table's distinct queues
 * are read by skipping along its primary key, one probe per queue, not a scan.
 */
export async function queueNames(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ queue: string }>(
    `WITH RECURSIVE q(queue) AS (
       SELECT MIN(queue) FROM job
       UNION ALL SELECT (SELECT MIN(queue) FROM job WHERE queue > q.queue) FROM q WHERE q.queue IS NOT NULL
     )
     SELECT queue FROM q WHERE queue IS NOT NULL UNION SELECT DISTINCT queue FROM meta ORDER BY queue`,
  );
  return rows.map((row) => row.queue);
}

export async function existingQueues(db: Db, names: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ queue: string }>(
    `SELECT n.queue FROM unnest($1::text[]) AS n(queue)
      WHERE EXISTS (SELECT 1 FROM meta m WHERE m.queue = n.queue) OR EXISTS (SELECT 1 FROM job j WHERE j.queue = n.queue)`,
    [names],
  );
  return new Set(rows.map((row) => row.queue));
}

/** Counts and pause flag of each named queue in one statement (one index range per queue). */
export async function queueFigures(db: Db, names: readonly string[]): Promise<Map<string, QueueFigureRow>> {
  const { rows } = await db.query<Record<string, string | boolean>>(
    `SELECT q.queue,
            EXISTS (SELECT 1 FROM meta m WHERE m.queue = q.queue AND m.field = 'paused' AND m.value IN ('1', 'true')) AS paused,
            COUNT(j.id) FILTER (WHERE j.state = 'waiting' AND j.priority = 0) AS waiting,
            COUNT(j.id) FILTER (WHERE j.state = 'active') AS active,
            COUNT(j.id) FILTER (WHERE j.state = 'delayed') AS delayed,
            COUNT(j.id) FILTER (WHERE j.state = 'completed') AS completed,
            COUNT(j.id) FILTER (WHERE j.state = 'failed') AS failed,
            COUNT(j.id) FILTER (WHERE j.state = 'waiting' AND j.priority > 0) AS prioritized,
            COUNT(j.id) FILTER (WHERE j.state = 'waiting-children') AS waiting_children
       FROM unnest($1::text[]) AS q(queue) LEFT JOIN job j ON j.queue = q.queue
      GROUP BY q.queue`,
    [names],
  );
  const figures = new Map<string, QueueFigureRow>();
  for (const row of rows) {
    const count = (column: string) => Number(row[column]);
    figures.set(String(row.queue), {
      queue: String(row.queue),
      paused: row.paused === true,
      waiting: count('waiting'),
      active: count('active'),
      delayed: count('delayed'),
      completed: count('completed'),
      failed: count('failed'),
      prioritized: count('prioritized'),
      waitingChildren: count('waiting_children'),
    });
  }
  return figures;
}

/** Which rows each status's page reads, in BullMQ's order for it (the Redis list or sorted set it stands for). */
export const statusQueries: Record<string, { where: string; order: string }> = {
  wait: { where: `state = 'waiting' AND priority = 0`, order: 'seq' },
  paused: { where: `state = 'waiting' AND priority = 0`, order: 'seq' },
  prioritized: { where: `state = 'waiting' AND priority > 0`, order: 'priority, seq' },
  active: { where: `state = 'active'`, order: 'seq' },
  delayed: { where: `state = 'delayed'`, order: 'process_at_ms, seq' },
  completed: { where: `state = 'completed'`, order: 'finished_at_ms, seq' },
  failed: { where: `state = 'failed'`, order: 'finished_at_ms, seq' },
  'waiting-children': { where: `state = 'waiting-children'`, order: 'seq' },
};

const jobColumns = readColumns.job.map((column) => `j.${column}`).join(', ');

/** A page of a status ([start, end], newest first unless `oldestFirst`) and the status's size: two index reads, never the whole status. */
export async function jobPage(db: Db, queue: string, status: string, start: number, end: number, oldestFirst: boolean) {
  const query = statusQueries[status];
  if (!query) throw new Error(`unknown status ${status}`);
  const direction = oldestFirst ? 'ASC' : 'DESC';
  const order = query.order
    .split(', ')
    .map((column) => `${column} ${direction}`)
    .join(', ');
  const [count, page] = await Promise.all([
    db.query<{ total: string }>(`SELECT COUNT(*) AS total FROM job WHERE queue = $1 AND ${query.where}`, [queue]),
    db.query(
      `SELECT ${jobColumns} FROM job j WHERE queue = $1 AND ${query.where} ORDER BY ${order} OFFSET $2 LIMIT $3`,
      [queue, start, end - start + 1],
    ),
  ]);
  return { total: Number(count.rows[0]!.total), rows: page.rows as JobRow[] };
}

export type JobRow = Record<(typeof readColumns.job)[number], unknown>;

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

/** Jobs completed and failed in the newest `minutes` one-minute points of BullMQ's metrics (per-minute deltas, newest first). */
export async function finishedInPoints(
  db: Db,
  names: readonly string[],
  minutes: number,
): Promise<Map<string, { completed: number; failed: number }>> {
  const { rows } = await db.query<{ queue: string; kind: string; total: string }>(
    `SELECT queue, kind, (SELECT COALESCE(SUM(x), 0) FROM unnest(data[1:$2]) AS x) AS total FROM metrics WHERE queue = ANY($1::text[])`,
    [names, minutes],
  );
  const totals = new Map<string, { completed: number; failed: number }>();
  for (const row of rows) {
    const own = totals.get(row.queue) ?? { completed: 0, failed: 0 };
    if (row.kind === 'completed' || row.kind === 'failed') own[row.kind] = Number(row.total);
    totals.set(row.queue, own);
  }
  return totals;
}

/** The server's version, its sessions on this database and its uptime (StoreFacts on PostgreSQL; memory is not the database's to say). */
export async function serverFacts(db: Db): Promise<{ version: string; sessions: number; uptimeSeconds: number }> {
  const { rows } = await db.query<{ version: string; sessions: number; uptime: number }>(
    `SELECT current_setting('server_version') AS version,
            (SELECT COUNT(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS sessions,
            EXTRACT(EPOCH FROM now() - pg_postmaster_start_time())::int AS uptime`,
  );
  return { version: rows[0]!.version, sessions: rows[0]!.sessions, uptimeSeconds: rows[0]!.uptime };
}

/** BullMQ's cumulative finished counts (its metrics rows) and each queue's oldest waiting job (ms; 0 when none waits). */
export async function exportExtras(
  db: Db,
  names: readonly string[],
): Promise<Map<string, { completed: number; failed: number; oldestWaitingAt: number }>> {
  const { rows } = await db.query<{ queue: string; completed: string; failed: string; oldest: string | null }>(
    `SELECT n.queue,
            COALESCE((SELECT count FROM metrics m WHERE m.queue = n.queue AND m.kind = 'completed'), 0) AS completed,
            COALESCE((SELECT count FROM metrics m WHERE m.queue = n.queue AND m.kind = 'failed'), 0) AS failed,
            (SELECT added_at_ms FROM job j WHERE j.queue = n.queue AND j.state = 'waiting' AND j.priority = 0 ORDER BY j.seq LIMIT 1) AS oldest
       FROM unnest($1::text[]) AS n(queue)`,
    [names],
  );
  return new Map(
    rows.map((row) => [
      row.queue,
      { completed: Number(row.completed), failed: Number(row.failed), oldestWaitingAt: Number(row.oldest ?? 0) },
    ]),
  );
}

/** Jobs each queue finished after `since` and at or before `until` (ms), by the finished-jobs index. */
export async function finishedSince(
  db: Db,
  names: readonly string[],
  since: number,
  until: number,
): Promise<Map<string, { completed: number; failed: number }>> {
  const { rows } = await db.query<{ queue: string; completed: string; failed: string }>(
    `SELECT n.queue,
            (SELECT COUNT(*) FROM job j WHERE j.queue = n.queue AND j.state = 'completed' AND j.finished_at_ms > $2 AND j.finished_at_ms <= $3) AS completed,
            (SELECT COUNT(*) FROM job j WHERE j.queue = n.queue AND j.state = 'failed' AND j.finished_at_ms > $2 AND j.finished_at_ms <= $3) AS failed
       FROM unnest($1::text[]) AS n(queue)`,
    [names, since, until],
  );
  return new Map(rows.map((row) => [row.queue, { completed: Number(row.completed), failed: Number(row.failed) }]));
}

/** How many schedulers each queue has. */
export async function schedulerCounts(db: Db, names: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ queue: string; count: number }>(
    `SELECT queue, COUNT(*)::int AS count FROM scheduler WHERE queue = ANY($1::text[]) GROUP BY queue`,
    [names],
  );
  return new Map(rows.map((row) => [row.queue, row.count]));
}

/** Jobs of a finished status that finished at or before `before` (ms): the finished-jobs index. */
export async function finishedBefore(
  db: Db,
  queue: string,
  status: 'completed' | 'failed',
  before: number,
): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `SELECT COUNT(*) AS count FROM job WHERE queue = $1 AND state = $2::job_state AND finished_at_ms <= $3`,
    [queue, status, before],
  );
  return Number(rows[0]!.count);
}

/** The newest failed jobs of a queue, newest first (the finished-jobs index, no scan). */
export async function newestFailures(
  db: Db,
  queue: string,
  limit: number,
): Promise<Array<{ jobId: string; failedAt: number }>> {
  const { rows } = await db.query<{ id: string; finished_at_ms: string }>(
    `SELECT id, finished_at_ms FROM job WHERE queue = $1 AND state = 'failed' ORDER BY finished_at_ms DESC LIMIT $2`,
    [queue, limit],
  );
  return rows.map((row) => ({ jobId: row.id, failedAt: Number(row.finished_at_ms) }));
}

/**
 * BullMQ's PostgreSQL workers name their LISTEN session (`application_name`)
 * `<queue>` or `<queue>:w:<worker name>` (QueueEvents: `<queue>:qe`), as its
 * get_client_list reads them: the sessions of this database whose name is a
 * known queue's, with CLIENT LIST's fields (id, addr, age, idle, name).
 */
export async function workerSessions(
  db: Db,
): Promise<Array<{ queue: string; workerName: string | null; fields: Record<string, string> }>> {
  const { rows } = await db.query<{ name: string; pid: number; addr: string | null; age: number; idle: number }>(
    `SELECT application_name AS name, pid, client_addr::text || ':' || client_port AS addr,
            EXTRACT(EPOCH FROM now() - backend_start)::int AS age, EXTRACT(EPOCH FROM now() - COALESCE(state_change, backend_start))::int AS idle
       FROM pg_stat_activity WHERE datname = current_database() AND application_name <> '' AND application_name NOT LIKE '%:qe'`,
  );
  const sessions = rows.map((row) => {
    const marker = row.name.indexOf(':w:');
    return {
      row,
      queue: marker === -1 ? row.name : row.name.slice(0, marker),
      workerName: marker === -1 ? null : row.name.slice(marker + 3),
    };
  });
  const known = await existingQueues(db, [...new Set(sessions.map((session) => session.queue))]);
  return sessions
    .filter((session) => known.has(session.queue))
    .map(({ row, queue, workerName }) => ({
      queue,
      workerName,
      fields: {
        id: String(row.pid),
        addr: row.addr ?? 'local',
        age: String(row.age),
        idle: String(row.idle),
        name: row.name,
      },
    }));
}

const text = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);
const json = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : JSON.stringify(value);

/** A job row as the job hash BullMQ keeps on Redis (field → text), so one decoding serves both kinds. */
export function jobHashFromRow(row: JobRow): JobHash {
  const hash: JobHash = {
    name: text(row.name),
    data: json(row.data),
    opts: json(row.opts),
    priority: text(row.priority),
    delay: text(row.delay_ms),
    atm: text(row.attempts_made),
    ats: text(row.attempts_started),
    progress: json(row.progress),
    returnvalue: json(row.return_value),
    failedReason: text(row.failed_reason),
    stacktrace: json(row.stacktrace),
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
