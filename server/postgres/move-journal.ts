import type pg from 'pg';
import { AppError } from '../../contracts/app-error.js';
import type { Db } from './bullmq-schema.js';

/** How long a delivery stays in a PostgreSQL move journal (as on Redis): far longer than any batch, retry or resume. */
export const journalTtlMs = 86_400_000;

/**
 * The move journal of a PostgreSQL target: Bullpen's one table in the BullMQ schema, created the
 * first time a move delivers into that connection (never by a read, never by BullMQ's migrations),
 * so a move resumed after a crash can tell a job it already delivered, whatever a worker did with
 * the copy since (a row of `job` gone with removeOnComplete is no record). A row per delivered
 * job: the target queue, the source (connection, prefix, queue), the source job and its creation
 * time, the mover (a task's id) and when. Rows older than `journalTtlMs` are pruned by later moves.
 * A DBA may create it ahead (docs/api.md shows this statement); it is then used as it is.
 */
export const journalTableSql = `
CREATE TABLE IF NOT EXISTS bullpen_move_journal (
  target_queue    text   NOT NULL,
  source          text   NOT NULL,
  job             text   NOT NULL,
  mover           text   NOT NULL,
  delivered_at_ms bigint NOT NULL,
  PRIMARY KEY (target_queue, source, job)
);
CREATE INDEX IF NOT EXISTS bullpen_move_journal_mover_idx ON bullpen_move_journal (target_queue, mover);
CREATE INDEX IF NOT EXISTS bullpen_move_journal_age_idx ON bullpen_move_journal (delivered_at_ms)`;

const ensured = new WeakMap<Db, Promise<void>>();

/** Makes sure the journal exists (once per pool; a failure is not kept): 400 MOVE_JOURNAL_MISSING when Bullpen may not create it. */
export function ensureJournal(pool: pg.Pool, where: JournalPlace): Promise<void> {
  let ready = ensured.get(pool);
  if (!ready) {
    ready = createJournal(pool, where).catch((error: unknown) => {
      ensured.delete(pool);
      throw error;
    });
    ensured.set(pool, ready);
  }
  return ready;
}

/** Makes ensureJournal look again (the table was dropped while the service ran). */
export function forgetJournal(pool: pg.Pool): void {
  ensured.delete(pool);
}

/** Whose journal: named in the refusal. */
export interface JournalPlace {
  connectionId: string;
  schema: string;
}

async function createJournal(pool: pg.Pool, where: JournalPlace): Promise<void> {
  const { rows } = await pool.query<{ present: boolean }>(
    `SELECT to_regclass('bullpen_move_journal') IS NOT NULL AS present`,
  );
  if (rows[0]!.present) return;
  try {
    await inTransaction(pool, async (client) => {
      // Two services creating it at once would collide on the catalog: one at a time.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('bullpen:move-journal'))`);
      await client.query(journalTableSql);
    });
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    throw new AppError(
      'MOVE_JOURNAL_MISSING',
      'Moving jobs into this PostgreSQL connection needs the table bullpen_move_journal in its BullMQ schema, and this connection may not create it: create it as docs/api.md shows (nothing was moved)',
      { ...where },
    );
  }
}

/** Runs `work` in one transaction on one session of the pool (rolled back if it throws). */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Who delivered each of these source jobs into the target queue (source job → mover). */
export async function journalEntries(
  db: Db,
  targetQueue: string,
  source: string,
  jobs: string[],
): Promise<Map<string, string>> {
  const { rows } = await db.query<{ job: string; mover: string }>(
    `SELECT job, mover FROM bullpen_move_journal WHERE target_queue = $1 AND source = $2 AND job = ANY($3::text[])`,
    [targetQueue, source, jobs],
  );
  return new Map(rows.map((row) => [row.job, row.mover]));
}

/** Records deliveries, and forgets the oldest expired ones (a bounded number per call). */
export async function journalDeliveries(db: Db, targetQueue: string, source: string, jobs: string[], mover: string) {
  const now = Date.now();
  await db.query(
    `INSERT INTO bullpen_move_journal (target_queue, source, job, mover, delivered_at_ms)
     SELECT $1, $2, job, $4, $5 FROM unnest($3::text[]) AS job`,
    [targetQueue, source, jobs, mover, now],
  );
  await db.query(
    `DELETE FROM bullpen_move_journal WHERE ctid = ANY(ARRAY(
       SELECT ctid FROM bullpen_move_journal WHERE delivered_at_ms < $1 LIMIT 1000))`,
    [now - journalTtlMs],
  );
}

export async function forgetDeliveries(db: Db, targetQueue: string, source: string, jobs: string[]): Promise<void> {
  await db.query(`DELETE FROM bullpen_move_journal WHERE target_queue = $1 AND source = $2 AND job = ANY($3::text[])`, [
    targetQueue,
    source,
    jobs,
  ]);
}

/** How many jobs a mover delivered into a queue and kept there. */
export async function journalTally(db: Db, targetQueue: string, mover: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `SELECT COUNT(*) AS count FROM bullpen_move_journal WHERE target_queue = $1 AND mover = $2`,
    [targetQueue, mover],
  );
  return Number(rows[0]!.count);
}
