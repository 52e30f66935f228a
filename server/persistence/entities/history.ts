import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * History samples (0008, latency 0012): `at` is epoch milliseconds, a number on both databases; counts
 * are bigint in PostgreSQL, read as numbers. `resolution` is `raw` (kept a day) or `15m` (the roll-up,
 * kept SERVICE_HISTORY_DAYS). Written and read through server/history/sample-repository.ts only.
 */
const sampleCounts = {
  waiting: p.bigint('number'),
  active: p.bigint('number'),
  delayed: p.bigint('number'),
  failed: p.bigint('number'),
  completed: p.bigint('number'),
  completedDelta: p.bigint('number'),
  failedDelta: p.bigint('number'),
  oldestWaitingSeconds: p.bigint('number'),
  /** A queue row: 1 when paused; a connection row: how many of its queues are. */
  paused: p.integer(),
  workers: p.integer(),
};

/** One queue's figures at one instant (raw) or over one 15-minute bucket (roll-up). */
export const QueueSample = defineEntity({
  name: 'QueueSample',
  tableName: 'queue_sample',
  properties: {
    connectionId: p.string().primary().length(200),
    prefix: p.text().primary(),
    queueName: p.text().primary(),
    resolution: p.string().primary().length(10),
    at: p.bigint('number').primary(),
    ...sampleCounts,
    /** Jobs measured, and the percentiles of their processing and wait times in ms (null: nothing finished). */
    latencyJobs: p.integer().default(0),
    processingP50Ms: p.bigint('number').nullable().fieldName('processing_p50_ms'),
    processingP95Ms: p.bigint('number').nullable().fieldName('processing_p95_ms'),
    processingP99Ms: p.bigint('number').nullable().fieldName('processing_p99_ms'),
    waitP50Ms: p.bigint('number').nullable().fieldName('wait_p50_ms'),
    waitP95Ms: p.bigint('number').nullable().fieldName('wait_p95_ms'),
    waitP99Ms: p.bigint('number').nullable().fieldName('wait_p99_ms'),
  },
});
export type QueueSampleRow = InferEntity<typeof QueueSample>;

/** A connection's totals over its queues and its store's facts, precomputed on write. */
export const ConnectionSample = defineEntity({
  name: 'ConnectionSample',
  tableName: 'connection_sample',
  properties: {
    connectionId: p.string().primary().length(200),
    resolution: p.string().primary().length(10),
    at: p.bigint('number').primary(),
    ...sampleCounts,
    queues: p.integer(),
    /** 1 when the store answered (a roll-up: when every sample of the bucket did). */
    up: p.integer(),
    usedMemory: p.bigint('number').nullable(),
    maxMemory: p.bigint('number').nullable(),
    clients: p.integer().nullable(),
    opsPerSecond: p.integer().nullable(),
  },
});
export type ConnectionSampleRow = InferEntity<typeof ConnectionSample>;

/** Background work one replica at a time: who holds `name`, until when (epoch ms). See server/persistence/lease.ts. */
export const Lease = defineEntity({
  name: 'Lease',
  tableName: 'lease',
  properties: {
    name: p.string().primary().length(200),
    holder: p.string().length(100),
    expiresAt: p.bigint('number'),
  },
});
