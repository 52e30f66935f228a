import type { EntityManager } from '../../server/persistence/orm.js';

/** A queue's processing-time percentiles (ms) in the latest history sample. */
export interface LatestLatency {
  prefix: string;
  queueName: string;
  p50: number;
  p95: number;
  p99: number;
}

type Row = {
  prefix: string;
  queue_name: string;
  processing_p50_ms: number | string;
  processing_p95_ms: number | string;
  processing_p99_ms: number | string;
};

/**
 * The processing percentiles of the queues that finished jobs in the connection's latest sample, when
 * that sample is at most `maxAgeMs` old (a stopped sampler exports none rather than stale figures).
 * Two indexed reads: the connection row names the instant, the queue rows of that instant follow.
 */
export async function readLatestLatency(
  em: EntityManager,
  connectionId: string,
  maxAgeMs: number,
  now = Date.now(),
): Promise<LatestLatency[]> {
  const [latest] = await em.execute<Array<{ at: number | string | null }>>(
    'select max(at) as at from connection_sample where connection_id = ? and resolution = ?',
    [connectionId, 'raw'],
  );
  const at = latest?.at === null || latest?.at === undefined ? null : Number(latest.at);
  if (at === null || at < now - maxAgeMs) return [];
  const rows = await em.execute<Row[]>(
    'select prefix, queue_name, processing_p50_ms, processing_p95_ms, processing_p99_ms from queue_sample where resolution = ? and at = ? and connection_id = ? and processing_p50_ms is not null',
    ['raw', at, connectionId],
  );
  return rows.map((row) => ({
    prefix: row.prefix,
    queueName: row.queue_name,
    p50: Number(row.processing_p50_ms),
    p95: Number(row.processing_p95_ms),
    p99: Number(row.processing_p99_ms),
  }));
}
