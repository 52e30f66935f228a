import type { Db } from './bullmq-schema.js';

/**
 * The one write the service makes on BullMQ's PostgreSQL schema itself:
 * BullMQ has no API that replaces a job's stack traces (on Redis the service
 * sets the job hash's `stacktrace` field the same way). The column is
 * BullMQ's own (`job.stacktrace`, jsonb, oldest first), held by
 * test/postgres/bullmq-schema.test.ts. False when the job is not there.
 */
export async function replaceStacktraces(db: Db, queue: string, id: string, traces: string[]): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE job SET stacktrace = $3::jsonb WHERE queue = $1 AND id = $2`, [
    queue,
    id,
    JSON.stringify(traces),
  ]);
  return (rowCount ?? 0) > 0;
}
