import type { Db } from './schema-columns.js';

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
