import { jobCountKinds, type JobCountKind, type JobCounts, type QueueSummary } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { keyed, type KeyedCommand } from './pipelined.js';
import { countSourceByKind, figures, readQueueFigures } from './queue-figures.js';
import { queueKey, type QueueRef } from './queue-key.js';

/**
 * Queues per script call of a list: a sort of 1,000 queues is one call, and
 * one call holds the store for a few milliseconds at most.
 */
export const listQueuesPerCall = 1000;

export function countCommand(ref: QueueRef, kind: JobCountKind): KeyedCommand {
  const { command, type } = countSourceByKind[kind];
  return keyed(command, queueKey(ref, type));
}

/** One count for each queue, by the figures script (used to sort by a count). */
export async function fetchCount(client: StoreClient, refs: QueueRef[], kind: JobCountKind): Promise<number[]> {
  const { values } = await readQueueFigures(client, refs, [figures.count(kind)], listQueuesPerCall);
  return values.map((own) => own[0]!);
}

const summaryFigures = [figures.paused(), ...jobCountKinds.map(figures.count)];

/** The pause flag and every count of each queue: one script call for a page. */
export async function fetchQueueSummaries(client: StoreClient, refs: QueueRef[]): Promise<QueueSummary[]> {
  const { values } = await readQueueFigures(client, refs, summaryFigures, listQueuesPerCall);
  return refs.map((ref, index) => {
    const own = values[index]!;
    return { name: ref.name, prefix: ref.prefix, isPaused: own[0] === 1, jobCounts: jobCountsAt(own, 1) };
  });
}

/**
 * The counts stored from `offset` on in `values`, in jobCountKinds order, as one object literal: built
 * through Object.fromEntries the counts of a page of 100 queues were its second-largest garbage.
 */
export function jobCountsAt(values: readonly number[], offset: number): JobCounts {
  return {
    waiting: values[offset]!,
    active: values[offset + 1]!,
    delayed: values[offset + 2]!,
    completed: values[offset + 3]!,
    failed: values[offset + 4]!,
    paused: values[offset + 5]!,
    prioritized: values[offset + 6]!,
    waitingChildren: values[offset + 7]!,
  };
}
