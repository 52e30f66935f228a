import { measuredQueueSamples, newestSampleAt } from '../../server/history/sample-repository.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** A queue's processing-time percentiles (ms) in the latest history sample. */
export interface LatestLatency {
  prefix: string;
  queueName: string;
  p50: number;
  p95: number;
  p99: number;
}

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
  const at = await newestSampleAt(em, connectionId);
  if (at === null || at < now - maxAgeMs) return [];
  const rows = await measuredQueueSamples(em, connectionId, at);
  return rows.map((row) => ({
    prefix: row.prefix,
    queueName: row.queueName,
    p50: Number(row.processingP50Ms),
    p95: Number(row.processingP95Ms),
    p99: Number(row.processingP99Ms),
  }));
}
