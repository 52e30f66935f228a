import type { ConnectionHistory, QueueHistory } from '../../contracts/history.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { mergeIntoSteps, type Figures, type HistoryRange, type Merge } from './history-steps.js';

const queueMerges = {
  waiting: 'latest',
  active: 'latest',
  delayed: 'latest',
  failed: 'latest',
  completed: 'latest',
  completed_delta: 'sum',
  failed_delta: 'sum',
  oldest_waiting_seconds: 'max',
  paused: 'latest',
  workers: 'latest',
} as const satisfies Record<string, Merge>;
const latencyMerges = {
  latency_jobs: 'sum',
  processing_p50_ms: 'max',
  processing_p95_ms: 'max',
  processing_p99_ms: 'max',
  wait_p50_ms: 'max',
  wait_p95_ms: 'max',
  wait_p99_ms: 'max',
} as const satisfies Record<string, Merge>;
const connectionMerges = {
  ...queueMerges,
  queues: 'latest',
  up: 'all',
  used_memory: 'latest',
  max_memory: 'latest',
  clients: 'latest',
  ops_per_second: 'latest',
} as const satisfies Record<string, Merge>;

const iso = (ms: number) => new Date(ms).toISOString();
const int = (value: number | null | undefined) => Number(value ?? 0);

function queueFigures(step: Figures) {
  return {
    waiting: int(step.waiting),
    active: int(step.active),
    delayed: int(step.delayed),
    failed: int(step.failed),
    completed: int(step.completed),
    completedDelta: int(step.completed_delta),
    failedDelta: int(step.failed_delta),
    oldestWaitingSeconds: int(step.oldest_waiting_seconds),
    workers: int(step.workers),
  };
}

/** A step's p50/p95/p99 of one measure (processing or wait), or null when no sample of it measured any job. */
function percentilesOf(step: Figures, measure: 'processing' | 'wait') {
  const [p50, p95, p99] = [step[`${measure}_p50_ms`], step[`${measure}_p95_ms`], step[`${measure}_p99_ms`]];
  return p50 === null || p50 === undefined ? null : { p50, p95: int(p95), p99: int(p99) };
}

/** The prefixes under which a queue has samples, newest first. */
export async function sampledPrefixes(em: EntityManager, connectionId: string, queueName: string): Promise<string[]> {
  const rows = await em.execute<Array<{ prefix: string }>>(
    'select prefix, max(at) as newest from queue_sample where connection_id = ? and queue_name = ? group by prefix order by newest desc',
    [connectionId, queueName],
  );
  return rows.map((row) => row.prefix);
}

export async function readQueueHistory(
  em: EntityManager,
  ref: { connectionId: string; prefix: string; queueName: string },
  range: HistoryRange,
): Promise<QueueHistory> {
  const rows = await em.execute<Figures[]>(
    'select * from queue_sample where connection_id = ? and prefix = ? and queue_name = ? and resolution = ? and at >= ? and at < ? order by at',
    [ref.connectionId, ref.prefix, ref.queueName, range.resolution, range.from, range.to],
  );
  return {
    ...page(range),
    points: mergeIntoSteps(rows, range, { ...queueMerges, ...latencyMerges }).map(({ at, figures }) => ({
      at: iso(at),
      ...queueFigures(figures),
      paused: int(figures.paused) === 1,
      latencyJobs: int(figures.latency_jobs),
      processingMs: percentilesOf(figures, 'processing'),
      waitMs: percentilesOf(figures, 'wait'),
    })),
  };
}

export async function readConnectionHistory(
  em: EntityManager,
  connectionId: string,
  range: HistoryRange,
): Promise<ConnectionHistory> {
  const rows = await em.execute<Figures[]>(
    'select * from connection_sample where connection_id = ? and resolution = ? and at >= ? and at < ? order by at',
    [connectionId, range.resolution, range.from, range.to],
  );
  return {
    ...page(range),
    points: mergeIntoSteps(rows, range, connectionMerges).map(({ at, figures }) => ({
      at: iso(at),
      ...queueFigures(figures),
      paused: int(figures.paused),
      queues: int(figures.queues),
      up: int(figures.up) === 1,
      usedMemory: figures.used_memory ?? null,
      maxMemory: figures.max_memory ?? null,
      clients: figures.clients ?? null,
      opsPerSecond: figures.ops_per_second ?? null,
    })),
  };
}

const page = (range: HistoryRange) => ({
  from: iso(range.from),
  to: iso(range.to),
  stepSeconds: Math.round(range.stepMs / 1000),
});
