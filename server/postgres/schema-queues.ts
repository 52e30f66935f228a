import type { Db } from './schema-columns.js';

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
