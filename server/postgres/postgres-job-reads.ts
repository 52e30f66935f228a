import type { JobDetailRead, RawJobRef, ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import type { JobLogsRead, ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import type { JobPageRead, JobPageRequest } from '../bullmq/read-job-page.js';
import type { LargeCounts } from './large-counts.js';
import { existingQueues, jobHashFromRow, jobLogs, jobPage, jobsByKey, type Db } from './bullmq-schema.js';
import type { DetailBatches } from './detail-batches.js';
import { cappedJobDetail } from './postgres-job-detail.js';

/**
 * The job reads of the seam on PostgreSQL, answered in the shapes of the
 * Redis scripts (server/bullmq/read-job-*.ts): the job as its hash fields
 * in one statement (a job there means its queue is), the queue's existence
 * read only when the job is not there (404 for the queue, else the job).
 */

/** The schema is the connection's one "prefix": a queue asked for elsewhere is not there. */
async function queueThere(
  db: Db,
  schema: string,
  request: { queueName: string; prefixes: readonly string[] },
): Promise<boolean> {
  if (!request.prefixes.includes(schema)) return false;
  return (await existingQueues(db, [request.queueName])).has(request.queueName);
}

/** A job that is not there: its queue's absence first (404 for the queue), as the Redis scripts answer. */
async function missing(
  db: Db,
  schema: string,
  request: { queueName: string; prefixes: readonly string[] },
): Promise<{ found: 'queue-missing' } | { found: 'job-missing'; prefix: string }> {
  return (await queueThere(db, schema, request))
    ? { found: 'job-missing', prefix: schema }
    : { found: 'queue-missing' };
}

export async function readPage(
  db: Db,
  schema: string,
  request: JobPageRequest,
  large?: LargeCounts,
): Promise<JobPageRead> {
  const { start, end, oldestFirst, statusKey } = request;
  if (!request.prefixes.includes(schema)) return { found: 'queue-missing' };
  // One statement: a missing queue or a list that does not apply discards the page.
  const { there, paused, total, rows } = await jobPage(
    db,
    request.queueName,
    statusKey,
    { start, end, oldestFirst },
    large,
  );
  if (!there) return { found: 'queue-missing' };
  // A paused queue's waiting jobs are its `paused` list (see postgres-queue-reads.ts); the other list is then empty.
  if ((statusKey === 'wait' && paused) || (statusKey === 'paused' && !paused))
    return { found: 'page', prefix: schema, total: 0, jobs: [] };
  const fields = new Set(request.fields);
  const jobs = rows.map((row) => {
    const hash = jobHashFromRow(row);
    for (const field of Object.keys(hash)) if (!fields.has(field)) delete hash[field];
    return { id: String(row.id), hash };
  });
  return { found: 'page', prefix: schema, total, jobs };
}

/** BullMQ's PostgreSQL backend keeps a prioritized job `waiting` with a priority, where Redis names it `prioritized`. */
function stateOf(state: unknown, priority: unknown): string {
  return state === 'waiting' && Number(priority) > 0 ? 'prioritized' : String(state);
}

/** `<queue>:<id>` (BullMQ's PostgreSQL keys carry no prefix): split at the last ':' as ids never hold one. */
function splitKey(key: string): { queue: string; id: string } {
  const at = key.lastIndexOf(':');
  return { queue: key.slice(0, at), id: key.slice(at + 1) };
}

/** Redis-shaped refs (`<schema>:<queue>:<id>`), so the detail's ref parsing serves both kinds. */
export async function refsOf(db: Db, schema: string, keys: string[]): Promise<RawJobRef[]> {
  const parts = keys.map(splitKey);
  const found = await jobsByKey(db, parts);
  return parts.map((part, index) => ({
    key: `${schema}:${part.queue}:${part.id}`,
    name: found[index]?.name ?? null,
    state: found[index] ? stateOf(found[index].state, found[index].priority) : 'unknown',
  }));
}

/** A job's detail; `batches` (the store's) sends it with the other reads waiting for a statement. */
export async function readDetail(
  db: Db,
  schema: string,
  options: ReadJobDetailOptions,
  batches?: DetailBatches,
): Promise<JobDetailRead> {
  const request = {
    queue: options.queueName,
    id: options.jobId,
    childLimit: options.childLimit,
    maxBytes: options.maxBytes,
  };
  const read = !options.prefixes.includes(schema)
    ? undefined
    : batches
      ? await batches.read(db, request)
      : await cappedJobDetail(db, request.queue, request.id, request.childLimit, request.maxBytes);
  if (!read) return missing(db, schema, options);
  if (read.found === 'too-big') return { ...read, prefix: schema };
  const hash = jobHashFromRow(read.row, 'text') as Record<string, string>;
  const parentKey = hash.parentKey;
  const [parentRefs, childRefs] = await Promise.all([
    refsOf(db, schema, parentKey ? [parentKey] : []),
    refsOf(db, schema, read.childKeys),
  ]);
  if (parentKey) hash.parentKey = parentRefs[0]!.key;
  const counts = read.dependencyCounts;
  return {
    found: 'job',
    job: {
      prefix: schema,
      hash,
      state: stateOf(read.row.state, read.row.priority),
      logsCount: read.logsCount,
      children: {
        processed: counts.processed ?? 0,
        unprocessed: counts.pending ?? 0,
        failed: counts.failed ?? 0,
        ignored: counts.ignored ?? 0,
      },
      childKeys: childRefs.map((ref) => ref.key),
      ...(parentRefs[0] ? { parent: parentRefs[0] } : {}),
      childRefs,
      refsResolved: true,
    },
  };
}

export async function readLogs(db: Db, schema: string, options: ReadJobLogsOptions): Promise<JobLogsRead> {
  const read = options.prefixes.includes(schema)
    ? await jobLogs(db, options.queueName, options.jobId, options.start, options.end)
    : undefined;
  if (!read) return missing(db, schema, options);
  return { found: 'job', prefix: schema, count: read.count, logs: read.logs };
}
