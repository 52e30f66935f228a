import { ReplyError } from 'ioredis';
import type { JobCountKind } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { byHashTag, callKeys, figureCalls, type FigureCall } from './figure-call-groups.js';
import { queueFiguresScript } from './queue-figures-script.js';
import { spansSlots } from './cluster-slots.js';
import { queueKey, type QueueRef } from './queue-key.js';
import { inWindow } from './figure-call-window.js';

/** One value read of each queue by the figures script (its operations are documented there). */
export interface QueueFigure {
  operation: 'llen' | 'zcard' | 'hexists' | 'hnumber' | 'any' | 'zcount-after' | 'lsum' | 'oldest';
  /** Key types of the queue (`<prefix>:<name>:<type>`) it reads; several only for `any`. */
  types: readonly string[];
  argument: string | number;
  /** `each`: one value per queue; `sum`: only the total over the queues; `both`. */
  keep: 'each' | 'sum' | 'both';
  /** Its key is usually missing: looked up first with the queue's other such keys in one EXISTS (one type only). */
  rare?: boolean;
}

/**
 * The O(1) command counting one status on BullMQ 6's key layout. On BullMQ 6
 * a paused queue keeps its waiting jobs in `wait`; `paused` is the list older
 * versions moved them to.
 */
export const countSourceByKind: Record<JobCountKind, { command: 'llen' | 'zcard'; type: string; rare: boolean }> = {
  waiting: { command: 'llen', type: 'wait', rare: false },
  active: { command: 'llen', type: 'active', rare: true },
  delayed: { command: 'zcard', type: 'delayed', rare: true },
  completed: { command: 'zcard', type: 'completed', rare: false },
  failed: { command: 'zcard', type: 'failed', rare: false },
  paused: { command: 'llen', type: 'paused', rare: true },
  prioritized: { command: 'zcard', type: 'prioritized', rare: true },
  waitingChildren: { command: 'zcard', type: 'waiting-children', rare: true },
};

const figure = (
  operation: QueueFigure['operation'],
  types: string[],
  argument: string | number = '',
  rare = false,
): QueueFigure => ({ operation, types, argument, keep: 'each', rare });

/** The figures every reader of queues composes from. */
export const figures = {
  /** Jobs of one status. */
  count: (kind: JobCountKind) =>
    figure(countSourceByKind[kind].command, [countSourceByKind[kind].type], '', countSourceByKind[kind].rare),
  /** 1 when the queue is paused (BullMQ's isPaused: the `paused` field of its meta hash), else 0. */
  paused: () => figure('hexists', ['meta'], 'paused'),
  /** 1 when one of these statuses holds a job, else 0: EXISTS of each in turn, stopping at the first (put the likeliest first). */
  anyJob: (kinds: readonly JobCountKind[]) =>
    figure(
      'any',
      kinds.map((kind) => countSourceByKind[kind].type),
    ),
  /** The finished total BullMQ keeps in its metrics hash (what its Prometheus export says). */
  finishedTotal: (status: 'completed' | 'failed') => figure('hnumber', [`metrics:${status}`], 'count'),
  /** Jobs finished in the newest `minutes` one-minute points of BullMQ's metrics. */
  finishedInPoints: (status: 'completed' | 'failed', minutes: number) =>
    figure('lsum', [`metrics:${status}:data`], minutes, true),
  /** Jobs finished after `since` (ms), up to `until` included when given: the status sets are scored by finish time. */
  finishedSince: (status: 'completed' | 'failed', since: number, until?: number) =>
    figure('zcount-after', [status], until === undefined ? since : `${since}:${until}`),
  /** Enqueue time (ms) of the oldest job in `wait`; 0 when none waits. */
  oldestWaitingAt: () => figure('oldest', ['wait'], 'timestamp'),
};

export const keeping = (keep: QueueFigure['keep'], read: QueueFigure): QueueFigure => ({ ...read, keep });

export interface FigureReadings {
  /** Per queue (in `refs` order), the value of each figure (in `figures` order); NaN for one kept as `sum` only. */
  values: number[][];
  /** Per figure, its sum over every queue (0 for one kept as `each` only). */
  sums: number[];
}

const scriptArguments = (read: readonly QueueFigure[]) =>
  read.flatMap((one) => [
    one.operation,
    one.rare ? `${one.keep}?` : one.keep,
    one.argument,
    one.types.length,
    ...one.types,
  ]);

/**
 * Reads `figures` of every queue of `refs` with one script call per
 * `perCall` queues (per master on a cluster, figureCalls), all sent at once: a few
 * round trips and no per-queue command whatever the number of queues, and
 * each call short enough not to hold the store for long.
 */
export async function readQueueFigures(
  client: StoreClient,
  refs: readonly QueueRef[],
  read: readonly QueueFigure[],
  perCall: number,
): Promise<FigureReadings> {
  const kept = read.flatMap((one, index) => (one.keep === 'sum' ? [] : [index]));
  const values = new Array<number[]>(refs.length);
  const sums = read.map(() => 0);
  const blank = read.map(() => Number.NaN);
  // Nothing kept per queue (sums only, the list's totals): every queue shares one frozen row of NaN instead of 10,000 copies.
  const sharedRow = Object.freeze(blank.slice()) as number[];
  const args = scriptArguments(read);
  // A queue whose keys span a cluster's slots cannot be read by one script: zeros, and the others still read.
  const readable = refs.filter((ref, index) => {
    if (!spansSlots(client, ref)) return true;
    values[index] = kept.length === 0 ? sharedRow : read.map(() => 0);
    return false;
  });
  const positions =
    readable.length === refs.length ? undefined : refs.flatMap((ref, i) => (spansSlots(client, ref) ? [] : [i]));
  const readCall = async (call: FigureCall): Promise<void> => {
    const indexes = positions ? call.indexes.map((index) => positions[index]!) : call.indexes;
    const { keys, argsBefore } = callKeys(
      indexes.map((index) => queueKey(refs[index]!, 'meta')),
      call.acrossSlots,
    );
    let reply: Buffer;
    try {
      reply = await queueFiguresScript.runForBuffer(client, keys, [...argsBefore, ...args]);
    } catch (error) {
      // A node that no longer serves one of the slots (a resharding, a stale slot map): read by hash tag.
      if (!call.acrossSlots || !(error instanceof ReplyError)) throw error;
      await Promise.all(byHashTag(readable, call).map(readCall));
      return;
    }
    if (reply.length !== (indexes.length * kept.length + read.length) * 8)
      throw new Error(`figures script: ${reply.length} bytes for ${indexes.length} queues`);
    // Plain loops: at 10,000 queues × 10 figures, closures per value showed in profiles.
    let at = 0;
    for (let i = 0; i < indexes.length; i++) {
      const refIndex = indexes[i]!;
      // A copy of a packed array of doubles: one small allocation (new Array(n).fill was ~8× the bytes, a page of 100 queues' biggest garbage).
      if (kept.length === 0) {
        values[refIndex] = sharedRow;
        continue;
      }
      const own = blank.slice();
      for (let k = 0; k < kept.length; k++) own[kept[k]!] = reply.readDoubleLE(8 * at++);
      values[refIndex] = own;
    }
    for (let figureIndex = 0; figureIndex < read.length; figureIndex++)
      sums[figureIndex]! += reply.readDoubleLE(8 * (at + figureIndex));
  };
  await inWindow(figureCalls(client, readable, perCall), readCall);
  return { values, sums };
}
