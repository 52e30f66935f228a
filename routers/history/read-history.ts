import type { ConnectionHistory, QueueHistory } from '../../contracts/history.js';
import { connectionSamples, queueSamples } from '../../server/history/sample-repository.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { mergeIntoSteps, type Figures, type HistoryRange, type Merge } from './history-steps.js';

const queueMerges = {
  waiting: 'latest',
  active: 'latest',
  delayed: 'latest',
  failed: 'latest',
  completed: 'latest',
  completedDelta: 'sum',
  failedDelta: 'sum',
  oldestWaitingSeconds: 'max',
  paused: 'latest',
  workers: 'latest',
} as const satisfies Record<string, Merge>;
const latencyMerges = {
  latencyJobs: 'sum',
  processingP50Ms: 'max',
  processingP95Ms: 'max',
  processingP99Ms: 'max',
  waitP50Ms: 'max',
  waitP95Ms: 'max',
  waitP99Ms: 'max',
} as const satisfies Record<string, Merge>;
const connectionMerges = {
  ...queueMerges,
  queues: 'latest',
  up: 'all',
  usedMemory: 'latest',
  maxMemory: 'latest',
  clients: 'latest',
  opsPerSecond: 'latest',
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
    completedDelta: int(step.completedDelta),
    failedDelta: int(step.failedDelta),
    oldestWaitingSeconds: int(step.oldestWaitingSeconds),
    workers: int(step.workers),
  };
}

/** A step's p50/p95/p99 of one measure (processing or wait), or null when no sample of it measured any job. */
function percentilesOf(step: Figures, measure: 'processing' | 'wait') {
  const [p50, p95, p99] = [step[`${measure}P50Ms`], step[`${measure}P95Ms`], step[`${measure}P99Ms`]];
  return p50 === null || p50 === undefined ? null : { p50, p95: int(p95), p99: int(p99) };
}

export { sampledPrefixes } from '../../server/history/sample-repository.js';

export async function readQueueHistory(
  em: EntityManager,
  ref: { connectionId: string; prefix: string; queueName: string },
  range: HistoryRange,
): Promise<QueueHistory> {
  const rows = await queueSamples(em, { connectionId: ref.connectionId, ...range }, ref);
  return {
    ...page(range),
    points: mergeIntoSteps(rows, range, { ...queueMerges, ...latencyMerges }).map(({ at, figures }) => ({
      at: iso(at),
      ...queueFigures(figures),
      paused: int(figures.paused) === 1,
      latencyJobs: int(figures.latencyJobs),
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
  const rows = await connectionSamples(em, { connectionId, ...range });
  return {
    ...page(range),
    points: mergeIntoSteps(rows, range, connectionMerges).map(({ at, figures }) => ({
      at: iso(at),
      ...queueFigures(figures),
      paused: int(figures.paused),
      queues: int(figures.queues),
      up: int(figures.up) === 1,
      usedMemory: figures.usedMemory ?? null,
      maxMemory: figures.maxMemory ?? null,
      clients: figures.clients ?? null,
      opsPerSecond: figures.opsPerSecond ?? null,
    })),
  };
}

const page = (range: HistoryRange) => ({
  from: iso(range.from),
  to: iso(range.to),
  stepSeconds: Math.round(range.stepMs / 1000),
});
