import { maxReasonRead, type FailuresRead, type FailureWindow } from '../bullmq/read-failures.js';
import { finishedJob, type FinishedJob, type FinishedJobsRead } from '../bullmq/read-finished-jobs.js';
import type { BusyQueue, Percentiles, QueueLatency } from '../history/sample-latency.js';
import { latencyJobsPerQueue } from '../history/sample-latency.js';
import type { Db } from './bullmq-schema.js';

/**
 * Reads of finished jobs on BullMQ's PostgreSQL schema, each one statement
 * on its finished-jobs index (`job (queue, state, finished_at_ms)`), in the
 * shapes the Redis reads answer: the failure triage, the history's insights
 * and its latency percentiles. Tables and columns: those of bullmq-schema.ts's
 * `readColumns` (job: queue, id, name, state, failed_reason, stacktrace,
 * added_at_ms, processed_at_ms, finished_at_ms).
 */

/** Longest first stack line kept (as the Redis script cuts it). */
const stackLineRead = 300;

/** Failed jobs with a failure time in [from, upper], newest first (ties by id, descending, as Redis orders a score's members), past `skip`. */
export async function failuresPage(db: Db, queue: string, window: FailureWindow): Promise<FailuresRead> {
  const { rows } = await db.query<{ id: string; finished: string; reason: string | null; line: string | null }>(
    `SELECT id, finished_at_ms AS finished, left(failed_reason, $6) AS reason,
            CASE WHEN jsonb_typeof(stacktrace -> -1) = 'string'
                 THEN left(split_part(stacktrace ->> -1, E'\\n', 1), $7) END AS line
       FROM job WHERE queue = $1 AND state = 'failed' AND finished_at_ms >= $2 AND finished_at_ms <= $3
      ORDER BY finished_at_ms DESC, id DESC OFFSET $4 LIMIT $5`,
    [queue, window.from, window.upper, window.skip, window.limit, maxReasonRead, stackLineRead],
  );
  return {
    scores: rows.map((row) => Number(row.finished)),
    jobs: rows.map((row) => ({
      id: row.id,
      reason: row.reason ?? '',
      finishedOn: Number(row.finished),
      stackFirstLine: row.line,
    })),
  };
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

/** How many jobs of a finished status finished at or after `from`, and the newest `limit` (name and times). */
export async function finishedJobsSince(
  db: Db,
  queue: string,
  state: FinishedJob['state'],
  from: number,
  limit: number,
): Promise<FinishedJobsRead> {
  const [count, page] = await Promise.all([
    db.query<{ total: string }>(
      `SELECT COUNT(*) AS total FROM job WHERE queue = $1 AND state = $2::job_state AND finished_at_ms >= $3`,
      [queue, state, from],
    ),
    db.query<{ id: string; name: string; added: string | null; started: string | null; finished: string }>(
      `SELECT id, name, added_at_ms AS added, processed_at_ms AS started, finished_at_ms AS finished
         FROM job WHERE queue = $1 AND state = $2::job_state AND finished_at_ms >= $3
        ORDER BY finished_at_ms DESC LIMIT $4`,
      [queue, state, from, limit],
    ),
  ]);
  return {
    inWindow: Number(count.rows[0]!.total),
    jobs: page.rows.map((row) =>
      finishedJob(row.id, row.name, state, {
        added: numberOrNull(row.added),
        started: numberOrNull(row.started),
        finished: Number(row.finished),
      }),
    ),
  };
}

const asPercentiles = (count: number, values: string[] | null): Percentiles | null =>
  count > 0 && values ? [Number(values[0]), Number(values[1]), Number(values[2])] : null;

/**
 * As the Redis latency script: per queue, the newest `latencyJobsPerQueue` jobs finished after `since`
 * (completed and failed merged by finish time), their processing and wait times' nearest-rank p50, p95,
 * p99 (percentile_disc is nearest-rank). One statement for every busy queue.
 */
export async function latenciesSince(db: Db, busy: readonly BusyQueue[], since: number): Promise<QueueLatency[]> {
  const { rows } = await db.query<{ pn: string; pp: string[] | null; wn: string; wp: string[] | null }>(
    `SELECT COUNT(x.p) AS pn, percentile_disc(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY x.p) AS pp,
            COUNT(x.w) AS wn, percentile_disc(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY x.w) AS wp
       FROM unnest($1::text[]) WITH ORDINALITY AS n(queue, ord)
       LEFT JOIN LATERAL (
         SELECT CASE WHEN f.processed_at_ms IS NOT NULL AND f.finished_at_ms >= f.processed_at_ms
                     THEN f.finished_at_ms - f.processed_at_ms END AS p,
                CASE WHEN f.processed_at_ms IS NOT NULL AND f.processed_at_ms >= f.added_at_ms
                     THEN f.processed_at_ms - f.added_at_ms END AS w
           FROM ((SELECT added_at_ms, processed_at_ms, finished_at_ms FROM job
                   WHERE queue = n.queue AND state = 'completed' AND finished_at_ms > $2 ORDER BY finished_at_ms DESC LIMIT $3)
                 UNION ALL
                 (SELECT added_at_ms, processed_at_ms, finished_at_ms FROM job
                   WHERE queue = n.queue AND state = 'failed' AND finished_at_ms > $2 ORDER BY finished_at_ms DESC LIMIT $3)
                 ORDER BY finished_at_ms DESC LIMIT $3) f
       ) x ON true
      GROUP BY n.ord ORDER BY n.ord`,
    [busy.map((queue) => queue.ref.name), Math.floor(since), latencyJobsPerQueue],
  );
  return rows.map((row) => ({
    jobs: Number(row.pn),
    processingMs: asPercentiles(Number(row.pn), row.pp),
    waitMs: asPercentiles(Number(row.wn), row.wp),
  }));
}
