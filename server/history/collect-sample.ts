import type { QueueDirectory } from '../bullmq/queue-directory.js';
import { introspect } from '../bullmq/introspection.js';
import { masterNodes } from '../bullmq/master-nodes.js';
import type { StoreHandle } from '../stores/store-handle.js';
import type { StoreClient } from '../stores/redis-client.js';
import type { QueueLatency } from './sample-latency.js';
import type { QueueReading } from './sample-script.js';

/** One queue at one moment, as the history keeps it. */
export interface QueuePoint {
  prefix: string;
  queueName: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  completedDelta: number;
  failedDelta: number;
  oldestWaitingSeconds: number;
  paused: boolean;
  workers: number;
  /** Processing and wait times of the jobs finished since the previous sample; null when none finished. */
  latency?: QueueLatency | null | undefined;
}

export interface StoreFacts {
  up: boolean;
  usedMemory: number | null;
  maxMemory: number | null;
  clients: number | null;
  opsPerSecond: number | null;
}

/** One sample of a connection: its queues, their totals (precomputed here, once) and the store. */
export interface ConnectionSample {
  at: number;
  queues: QueuePoint[];
  totals: Omit<QueuePoint, 'prefix' | 'queueName' | 'paused' | 'latency'> & { paused: number; queues: number };
  store: StoreFacts;
}

const downStore: StoreFacts = { up: false, usedMemory: null, maxMemory: null, clients: null, opsPerSecond: null };

/**
 * Reads a connection for the history (jobs finished in (since, at]): names from the queue directory (cached discovery), counts by
 * one script call per 200 queues, workers from one CLIENT LIST per master, store facts from INFO.
 * A store that does not answer gives a sample with `up: false` and no queue points.
 */
export async function collectSample(
  store: StoreHandle,
  directory: QueueDirectory,
  since: number,
  at: number,
): Promise<ConnectionSample> {
  try {
    const refs = await directory.list(store);
    const [readings, workers, facts] = await Promise.all([
      store.historyReadings(refs, since, at),
      workerCounts(store),
      store.historyFacts(),
    ]);
    const latencies = await latencyOfBusyQueues(store, readings, since);
    const queues = readings.map(
      (reading, index): QueuePoint => ({
        prefix: reading.ref.prefix,
        queueName: reading.ref.name,
        waiting: reading.waiting,
        active: reading.active,
        delayed: reading.delayed,
        failed: reading.failed,
        completed: reading.completed,
        completedDelta: reading.completedSince,
        failedDelta: reading.failedSince,
        oldestWaitingSeconds:
          reading.oldestWaitingAt > 0 ? Math.max(0, Math.round((at - reading.oldestWaitingAt) / 1000)) : 0,
        paused: reading.paused,
        workers: workers.get(`${reading.ref.prefix}\u0000${reading.ref.name}`) ?? 0,
        latency: latencies.get(index) ?? null,
      }),
    );
    return { at, queues, totals: totalsOf(queues), store: facts };
  } catch {
    return { at, queues: [], totals: totalsOf([]), store: downStore };
  }
}

export function totalsOf(queues: QueuePoint[]): ConnectionSample['totals'] {
  const sum = (pick: (point: QueuePoint) => number) => queues.reduce((total, point) => total + pick(point), 0);
  return {
    waiting: sum((q) => q.waiting),
    active: sum((q) => q.active),
    delayed: sum((q) => q.delayed),
    failed: sum((q) => q.failed),
    completed: sum((q) => q.completed),
    completedDelta: sum((q) => q.completedDelta),
    failedDelta: sum((q) => q.failedDelta),
    oldestWaitingSeconds: Math.max(0, ...queues.map((q) => q.oldestWaitingSeconds)),
    paused: sum((q) => (q.paused ? 1 : 0)),
    workers: sum((q) => q.workers),
    queues: queues.length,
  };
}

/** Latency of the queues that finished jobs since the previous sample (by reading index); idle queues cost nothing. */
async function latencyOfBusyQueues(
  store: StoreHandle,
  readings: QueueReading[],
  since: number,
): Promise<Map<number, QueueLatency>> {
  const busy = readings.flatMap((reading, index) => (reading.completedSince + reading.failedSince > 0 ? [index] : []));
  if (busy.length === 0) return new Map();
  const latencies = await store.historyLatencies(
    busy.map((index) => ({
      ref: readings[index]!.ref,
      finished: readings[index]!.completedSince + readings[index]!.failedSince,
    })),
    since,
  );
  return new Map(busy.flatMap((index, at) => (latencies[at] ? [[index, latencies[at]]] : [])));
}

async function workerCounts(store: StoreHandle): Promise<Map<string, number>> {
  const clients = (await store.workerClients([])) ?? [];
  const counts = new Map<string, number>();
  for (const client of clients) {
    const id = `${client.prefix}\u0000${client.queueName}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * used_memory, maxmemory, connected_clients and instantaneous_ops_per_sec from INFO, summed over a
 * cluster's masters; nulls when the provider refuses INFO (the store is still up).
 */
export async function readStoreFacts(client: StoreClient): Promise<StoreFacts> {
  const nodes = await masterNodes(client);
  const infos = (await introspect([], 'INFO', () => Promise.all(nodes.map((node) => node.info())))) ?? [];
  const sum = (name: string): number | null => {
    const values = infos
      .map((info) => new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1])
      .filter((value) => value !== undefined)
      .map(Number);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) : null;
  };
  return {
    up: true,
    usedMemory: sum('used_memory'),
    maxMemory: sum('maxmemory'),
    clients: sum('connected_clients'),
    opsPerSecond: sum('instantaneous_ops_per_sec'),
  };
}
