import type { Db } from './schema-columns.js';
import { existingQueues } from './schema-queues.js';

/** The server's version, its sessions on this database and its uptime (StoreFacts on PostgreSQL; memory is not the database's to say). */
export async function serverFacts(db: Db): Promise<{ version: string; sessions: number; uptimeSeconds: number }> {
  const { rows } = await db.query<{ version: string; sessions: number; uptime: number }>(
    `SELECT current_setting('server_version') AS version,
            (SELECT COUNT(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS sessions,
            EXTRACT(EPOCH FROM now() - pg_postmaster_start_time())::int AS uptime`,
  );
  return { version: rows[0]!.version, sessions: rows[0]!.sessions, uptimeSeconds: rows[0]!.uptime };
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
