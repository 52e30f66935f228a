import type pg from 'pg';
import type { EventSnapshot } from './event-window.js';

/** What the event feed reads of BullMQ's `event` table (held by test/postgres/bullmq-schema.test.ts). */
export const eventColumns = { event: ['queue', 'id', 'event', 'data'] } as const;

/** Events read per statement; a fuller backlog takes more statements at once. */
export const eventsPerRead = 500;

/**
 * A page of a queue's events past an id, with the bounds of the statement's own snapshot (the one
 * the page was read with; one row with a NULL id when there is no event).
 */
const pageSql = `SELECT e.id::text AS id, e.event, e.data, s.xmin::text AS xmin, s.xmax::text AS xmax
  FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin, pg_snapshot_xmax(pg_current_snapshot()) AS xmax) s
  LEFT JOIN LATERAL (
    SELECT id, event, data FROM event WHERE queue = $1 AND id > $2::bigint ORDER BY id LIMIT $3
  ) e ON true`;

interface PageRow {
  id: string | null;
  event: string;
  data: Record<string, unknown> | null;
  xmin: string;
  xmax: string;
}

export interface EventPage {
  /** The events, oldest first (empty when none). */
  rows: { id: string; event: string; data: Record<string, unknown> | null }[];
  /** Full when `rows` holds `eventsPerRead` events: more may follow. */
  full: boolean;
  snapshot: EventSnapshot;
}

export async function readEventPage(pool: pg.Pool, queue: string, after: bigint): Promise<EventPage> {
  const { rows } = await pool.query<PageRow>(pageSql, [queue, after.toString(), eventsPerRead]);
  const events = rows.flatMap((row) => (row.id === null ? [] : [{ id: row.id, event: row.event, data: row.data }]));
  return {
    rows: events,
    full: events.length >= eventsPerRead,
    snapshot: { xmin: BigInt(rows[0]!.xmin), xmax: BigInt(rows[0]!.xmax) },
  };
}
