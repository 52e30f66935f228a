import type { MovedJob } from '../bullmq/move-across-stores.js';
import type { MoveVerdict } from '../bullmq/move-within-store.js';
import type { Db } from './bullmq-schema.js';

/**
 * The SQL of a move on BullMQ's PostgreSQL tables: a job as a source reads and removes it, and as a
 * target adds it. Adding goes through BullMQ's own `add_job` (its events, its wake-up of workers,
 * its sequence), then the attempts and logs the new row lacks. What this reads and calls of
 * BullMQ's schema is listed here and held by test/postgres/move-schema.test.ts.
 */
export const moveColumns = {
  job: [
    'queue',
    'id',
    'name',
    'state',
    'data',
    'opts',
    'priority',
    'attempts_made',
    'attempts_started',
    'added_at_ms',
    'dedup_id',
    'scheduler_id',
    'parent_id',
    'lock_token',
  ],
  job_log: ['queue', 'job_id', 'idx', 'row'],
  job_dependency: ['parent_queue', 'parent_id'],
} as const;

/** BullMQ's functions a move calls, with their argument counts. */
export const moveFunctions = { add_job: 15, dedup_on_removal: 3, publish_event: 3 } as const;

/** A source job as a move judges and copies it. */
export interface SourceRow {
  id: string;
  name: string;
  data: string;
  opts: string;
  added_at_ms: string;
  priority: number;
  attempts_made: number;
  attempts_started: number;
  state: string;
  parent_id: string | null;
  scheduler_id: string | null;
  parent: boolean;
  logs: string[];
}

const sourceColumns = `j.id, j.name, j.data::text AS data, j.opts::text AS opts, j.added_at_ms, j.priority,
  j.attempts_made, j.attempts_started, j.state, j.parent_id, j.scheduler_id,
  EXISTS (SELECT 1 FROM job_dependency d WHERE d.parent_queue = j.queue AND d.parent_id = j.id) AS parent`;

/** Each job's options as stored (jsonb as text: what `changed` compares). */
export async function storedOpts(db: Db, queue: string, ids: string[]): Promise<Array<string | null>> {
  const { rows } = await db.query<{ id: string; opts: string }>(
    `SELECT id, opts::text AS opts FROM job WHERE queue = $1 AND id = ANY($2::text[])`,
    [queue, ids],
  );
  const found = new Map(rows.map((row) => [row.id, row.opts]));
  return ids.map((id) => found.get(id) ?? null);
}

/** The jobs with their logs (oldest first); `lock` takes their rows until the transaction ends (workers skip them). */
export async function sourceRows(db: Db, queue: string, ids: string[], lock: boolean): Promise<Map<string, SourceRow>> {
  const { rows } = await db.query<SourceRow>(
    lock
      ? `SELECT ${sourceColumns}, '{}'::text[] AS logs FROM job j WHERE j.queue = $1 AND j.id = ANY($2::text[]) FOR UPDATE OF j`
      : `SELECT ${sourceColumns}, ARRAY(SELECT l.row FROM job_log l WHERE l.queue = j.queue AND l.job_id = j.id ORDER BY l.idx) AS logs
           FROM job j WHERE j.queue = $1 AND j.id = ANY($2::text[])`,
    [queue, ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Why a job may not leave (as sourceVerdict does on Redis), or undefined when it may. */
export function sourceVerdict(row: SourceRow | undefined, readOpts: string): MoveVerdict | undefined {
  if (!row) return 'missing';
  if (row.state === 'active') return 'locked';
  if (row.parent_id !== null || row.parent || row.state === 'waiting-children') return 'flow';
  if (row.scheduler_id !== null && row.state === 'delayed') return 'scheduled';
  if (row.opts !== readOpts) return 'changed';
  return undefined;
}

export function movedJobOf(row: SourceRow): MovedJob {
  return {
    name: row.name,
    data: row.data,
    timestamp: String(row.added_at_ms),
    priority: String(row.priority),
    atm: String(row.attempts_made),
    ats: String(row.attempts_started),
    logs: row.logs,
  };
}

/** Deletes the jobs (their logs go with them), frees their deduplication keys, and says so on the event stream. */
export async function removeJobs(
  db: Db,
  queue: string,
  rows: Array<Pick<SourceRow, 'id' | 'state' | 'priority'>>,
): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.id);
  await db.query(
    `SELECT dedup_on_removal($1, id, dedup_id) FROM job WHERE queue = $1 AND id = ANY($2::text[]) AND dedup_id IS NOT NULL`,
    [queue, ids],
  );
  await db.query(`DELETE FROM job WHERE queue = $1 AND id = ANY($2::text[])`, [queue, ids]);
  await db.query(
    `SELECT publish_event($1, 'removed', jsonb_build_object('jobId', t.id, 'prev', t.prev)) FROM unnest($2::text[], $3::text[]) AS t(id, prev)`,
    [
      queue,
      ids,
      rows.map((row) => (row.state === 'waiting' ? (row.priority > 0 ? 'prioritized' : 'wait') : row.state)),
    ],
  );
}
