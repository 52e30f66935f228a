import type { Parcel } from '../bullmq/move-across-stores.js';
import type { Db } from './bullmq-schema.js';

/**
 * BullMQ on Redis stores a few options under short names (its optsEncodeMap); its PostgreSQL
 * backend and SQL read the long ones (`opts->>'failParentOnFailure'`), so an arriving job's options
 * are written the PostgreSQL way.
 */
const longOptionNames: Record<string, string> = {
  de: 'deduplication',
  fpof: 'failParentOnFailure',
  cpof: 'continueParentOnFailure',
  idof: 'ignoreDependencyOnFailure',
  kl: 'keepLogs',
  rdof: 'removeDependencyOnFailure',
};

function postgresOpts(movedOpts: string): Record<string, unknown> {
  const opts = JSON.parse(movedOpts || '{}') as Record<string, unknown>;
  return Object.fromEntries(Object.entries(opts).map(([key, value]) => [longOptionNames[key] ?? key, value]));
}

/** Which of these ids the queue holds already. */
export async function existingIds(db: Db, queue: string, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM job WHERE queue = $1 AND id = ANY($2::text[])`, [
    queue,
    ids,
  ]);
  return new Set(rows.map((row) => row.id));
}

/**
 * Adds each parcel's job as a new waiting (or prioritized) job of the queue through BullMQ's own
 * add_job (events, workers woken at commit), then gives it the attempts made and logs it had.
 * Meant to run in the transaction that journals the delivery.
 */
export async function insertJobs(db: Db, queue: string, parcels: Parcel[]): Promise<void> {
  if (parcels.length === 0) return;
  const ids = parcels.map(({ order }) => order.targetId);
  const opts = parcels.map(({ order }) => postgresOpts(order.movedOpts));
  await db.query(
    `SELECT add_job($1, t.id, t.name, t.data::jsonb, t.opts::jsonb, t.priority, 0, t.ts, t.attempts, NULL, NULL, NULL, NULL, NULL, t.lifo)
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::int[], $9::boolean[])
         WITH ORDINALITY AS t(id, name, data, opts, priority, ts, attempts, lifo, n)
      ORDER BY t.n`,
    [
      queue,
      ids,
      parcels.map(({ job }) => job.name),
      parcels.map(({ job }) => job.data || '{}'),
      opts.map((opt) => JSON.stringify(opt)),
      parcels.map(({ job }) => Number(job.priority) || 0),
      parcels.map(({ job }) => Number(job.timestamp) || Date.now()),
      opts.map((opt) => (typeof opt.attempts === 'number' ? opt.attempts : 1)),
      opts.map((opt) => opt.lifo === true),
    ],
  );
  await db.query(
    `UPDATE job j SET attempts_made = t.atm, attempts_started = t.ats
       FROM unnest($2::text[], $3::int[], $4::int[]) AS t(id, atm, ats) WHERE j.queue = $1 AND j.id = t.id`,
    [queue, ids, parcels.map(({ job }) => Number(job.atm) || 0), parcels.map(({ job }) => Number(job.ats) || 0)],
  );
  await db.query(
    `INSERT INTO job_log (queue, job_id, idx, row)
     SELECT $1, t.id, l.n - 1, l.row
       FROM unnest($2::text[], $3::text[]) AS t(id, logs), jsonb_array_elements_text(t.logs::jsonb) WITH ORDINALITY AS l(row, n)`,
    [queue, ids, parcels.map(({ job }) => JSON.stringify(job.logs))],
  );
}

/** Of these ids, the jobs still waiting for a worker, their rows taken until the transaction ends (workers skip them). */
export async function lockWaiting(db: Db, queue: string, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM job WHERE queue = $1 AND id = ANY($2::text[]) AND state = 'waiting' AND lock_token IS NULL FOR UPDATE`,
    [queue, ids],
  );
  return new Set(rows.map((row) => row.id));
}
