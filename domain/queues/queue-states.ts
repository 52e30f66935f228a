import { jobCountKinds, type JobCountKind, type JobCounts, type QueueSummary } from '../../contracts/queues.js';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { runPipelined, type KeyedCommand } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-keys.js';

/**
 * The O(1) command counting one status, on BullMQ 6's key layout (the same
 * keys its getCounts script reads, without that script's legacy-marker
 * write). On BullMQ 6 a paused queue keeps its waiting jobs in `wait`;
 * `paused` is the list older versions moved them to.
 */
const countCommandByKind: Record<JobCountKind, (ref: QueueRef) => KeyedCommand> = {
  waiting: (ref) => ['llen', queueKey(ref, 'wait')],
  active: (ref) => ['llen', queueKey(ref, 'active')],
  delayed: (ref) => ['zcard', queueKey(ref, 'delayed')],
  completed: (ref) => ['zcard', queueKey(ref, 'completed')],
  failed: (ref) => ['zcard', queueKey(ref, 'failed')],
  paused: (ref) => ['llen', queueKey(ref, 'paused')],
  prioritized: (ref) => ['zcard', queueKey(ref, 'prioritized')],
  waitingChildren: (ref) => ['zcard', queueKey(ref, 'waiting-children')],
};

export const countCommand = (ref: QueueRef, kind: JobCountKind): KeyedCommand => countCommandByKind[kind](ref);

/** One count for each queue, all in one round trip (used to sort by a count). */
export async function fetchCount(client: StoreClient, refs: QueueRef[], kind: JobCountKind): Promise<number[]> {
  const replies = await runPipelined(client, refs.map((ref) => countCommand(ref, kind)));
  return replies.map(Number);
}

/** The pause flag and every count of each queue, all in one round trip. */
export async function fetchQueueSummaries(client: StoreClient, refs: QueueRef[]): Promise<QueueSummary[]> {
  const perQueue = jobCountKinds.length + 1;
  const commands = refs.flatMap((ref): KeyedCommand[] => [
    ['hexists', queueKey(ref, 'meta'), 'paused'],
    ...jobCountKinds.map((kind) => countCommand(ref, kind)),
  ]);
  const replies = await runPipelined(client, commands);
  return refs.map((ref, index) => {
    const own = replies.slice(index * perQueue, (index + 1) * perQueue).map(Number);
    const jobCounts = Object.fromEntries(jobCountKinds.map((kind, k) => [kind, own[k + 1]!])) as JobCounts;
    return { name: ref.name, prefix: ref.prefix, isPaused: own[0] === 1, jobCounts };
  });
}
