import type { LargeCounts } from './large-counts.js';
import { type Db, type JobRow, jobColumns } from './schema-columns.js';
import { probe, settledCount } from './schema-counts.js';

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

/**
 * A page of a status ([start, end], newest first unless `oldestFirst`), the
 * status's size, whether the queue is there and paused: one statement (one
 * pool session per request), index ranges only, never the whole status (a
 * size past `large`'s cap comes from `large`).
 */
export async function jobPage(
  db: Db,
  queue: string,
  status: string,
  range: { start: number; end: number; oldestFirst: boolean },
  large?: LargeCounts,
): Promise<{ there: boolean; paused: boolean; total: number; rows: JobRow[] }> {
  const query = statusQueries[status];
  if (!query) throw new Error(`unknown status ${status}`);
  const direction = range.oldestFirst ? 'ASC' : 'DESC';
  const order = query.order
    .split(', ')
    .map((column) => `${column} ${direction}`)
    .join(', ');
  const { rows } = await db.query<JobRow & { there: boolean; paused: boolean; probed: string }>(
    `SELECT x.there, x.paused, x.probed, p.*
       FROM (SELECT EXISTS (SELECT 1 FROM meta WHERE queue = $1) OR EXISTS (SELECT 1 FROM job WHERE queue = $1) AS there,
                    EXISTS (SELECT 1 FROM meta WHERE queue = $1 AND field = 'paused' AND value IN ('1', 'true')) AS paused,
                    ${probe(query.where, '$1', '$4')} AS probed) x
       LEFT JOIN LATERAL (SELECT ${jobColumns} FROM job j WHERE j.queue = $1 AND j.${query.where}
                           ORDER BY ${order} OFFSET $2 LIMIT $3) p ON true`,
    [queue, range.start, range.end - range.start + 1, large?.probeLimit ?? null],
  );
  const first = rows[0]!;
  return {
    there: first.there,
    paused: first.paused,
    total: await settledCount(db, queue, query.where, Number(first.probed), large),
    rows: rows.filter((row) => row.id !== null),
  };
}
