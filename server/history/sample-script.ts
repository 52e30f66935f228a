import type { StoreHandle } from '../stores/store-handle.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import { figures, readQueueFigures } from '../bullmq/queue-figures.js';

/** What one sample holds of a queue, read in one script call with its neighbours. */
export interface QueueReading {
  ref: QueueRef;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  completedSince: number;
  failedSince: number;
  /** Enqueue time (ms) of the oldest job in `wait`; 0 when nothing waits. */
  oldestWaitingAt: number;
  paused: boolean;
}

/** At most this many queues per script call: each call stays short, and cost per sample is bounded. */
export const queuesPerScriptCall = 200;

/**
 * Waiting counts `wait` and `prioritized` as BullMQ's getWaitingCount does
 * (plus `paused`, the legacy list). Finished-since counts use the
 * completed/failed sorted sets, scored by finish time.
 */
const readingFigures = (since: number, until: number) => [
  figures.count('waiting'),
  figures.count('prioritized'),
  figures.count('paused'),
  figures.count('active'),
  figures.count('delayed'),
  figures.count('failed'),
  figures.count('completed'),
  figures.finishedSince('completed', since, until),
  figures.finishedSince('failed', since, until),
  figures.oldestWaitingAt(),
  figures.paused(),
];

/** Readings of many queues (finished in (since, until]): one script call per 200 queues, all sent together. */
export async function readQueues(
  store: StoreHandle,
  queues: QueueRef[],
  since: number,
  until: number,
): Promise<QueueReading[]> {
  const { values } = await readQueueFigures(store.client, queues, readingFigures(since, until), queuesPerScriptCall);
  return queues.map((ref, index) => {
    const [
      wait,
      prioritized,
      legacyPaused,
      active,
      delayed,
      failed,
      completed,
      completedSince,
      failedSince,
      oldestWaitingAt,
      paused,
    ] = values[index]! as [number, number, number, number, number, number, number, number, number, number, number];
    return {
      ref,
      waiting: wait + prioritized + legacyPaused,
      active,
      delayed,
      failed,
      completed,
      completedSince,
      failedSince,
      oldestWaitingAt,
      paused: paused === 1,
    };
  });
}
