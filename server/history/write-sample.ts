import type { EntityManager } from '../persistence/orm.js';
import type { ConnectionSample, QueuePoint } from './collect-sample.js';
import {
  newestSampleAt,
  upsertConnectionSamples,
  upsertQueueSamples,
  type QueueSampleData,
  type Resolution,
} from './sample-repository.js';

export const rollupMs = 15 * 60_000;

type Counts = Omit<QueuePoint, 'prefix' | 'queueName' | 'paused' | 'latency'> & { paused: number | boolean };

const counts = (point: Counts) => ({
  waiting: point.waiting,
  active: point.active,
  delayed: point.delayed,
  failed: point.failed,
  completed: point.completed,
  completedDelta: point.completedDelta,
  failedDelta: point.failedDelta,
  oldestWaitingSeconds: point.oldestWaitingSeconds,
  paused: Number(point.paused),
  workers: point.workers,
});

/** Jobs measured, processing and wait percentiles in ms (null when nothing finished; see sample-latency.ts). */
function latency({ latency }: QueuePoint) {
  const [processingP50Ms, processingP95Ms, processingP99Ms] = latency?.processingMs ?? [null, null, null];
  const [waitP50Ms, waitP95Ms, waitP99Ms] = latency?.waitMs ?? [null, null, null];
  return {
    latencyJobs: latency?.jobs ?? 0,
    processingP50Ms,
    processingP95Ms,
    processingP99Ms,
    waitP50Ms,
    waitP95Ms,
    waitP99Ms,
  };
}

/**
 * Queues written per transaction. Embedded mode's SQLite driver is synchronous: a transaction holds the
 * event loop from its first statement to its commit, and a sample written in one (11,000 queues: ~150 ms,
 * measured) stalled every request in flight once a minute. Slices of 200 queues take ~3 ms each, with a
 * turn of the event loop between them.
 */
const queuesPerTransaction = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stores one sample: raw rows, and the same figures folded into the 15-minute roll-up on write. Each
 * queue's two rows are written together, slice by slice; the connection's rows come last, so a
 * connection point exists only once every queue's is stored (a write cut short leaves some queues'
 * points of that instant, never a connection point without them).
 */
export async function writeSample(em: EntityManager, connectionId: string, sample: ConnectionSample): Promise<void> {
  const bucket = Math.floor(sample.at / rollupMs) * rollupMs;
  const queueRows = (points: readonly QueuePoint[], resolution: Resolution, at: number): QueueSampleData[] =>
    points.map((point) => ({
      connectionId,
      prefix: point.prefix,
      queueName: point.queueName,
      resolution,
      at,
      ...counts(point),
      ...latency(point),
    }));
  for (let start = 0; start < sample.queues.length; start += queuesPerTransaction) {
    const slice = sample.queues.slice(start, start + queuesPerTransaction);
    await em.transactional(async (tx) => {
      await upsertQueueSamples(tx, queueRows(slice, 'raw', sample.at));
      await upsertQueueSamples(tx, queueRows(slice, '15m', bucket));
    });
    await nextTurn();
  }
  const { totals, store } = sample;
  const connectionRow = (resolution: Resolution, at: number) => ({
    connectionId,
    resolution,
    at,
    ...counts(totals),
    queues: totals.queues,
    up: Number(store.up),
    usedMemory: store.usedMemory,
    maxMemory: store.maxMemory,
    clients: store.clients,
    opsPerSecond: store.opsPerSecond,
  });
  await em.transactional(async (tx) => {
    await upsertConnectionSamples(tx, [connectionRow('raw', sample.at)]);
    await upsertConnectionSamples(tx, [connectionRow('15m', bucket)]);
  });
}

/**
 * When the connection's newest raw sample was taken, as stored: where the next sample's finished-since
 * counts start after a restart or a lease handover, so the jobs finished in between are counted once.
 */
export const storedSampleAt = (em: EntityManager, connectionId: string): Promise<number | null> =>
  newestSampleAt(em, connectionId);
