import { jobCountKinds, type JobCountKind, type JobCounts, type QueueSummary } from '../../contracts/queues.js';
import type { StoreClient } from '../../server/stores/redis-client.js';
import { keyed, runPipelined, type KeyedCommand } from '../stores/pipelined.js';
import { queueKey, type QueueRef } from '../stores/queue-key.js';

/**
 * The O(1) command counting one status, on BullMQ 6's key layout (the keys
 * its getCounts script reads; that script is not used because it may write:
 * it pops legacy markers). On BullMQ 6 a paused queue keeps its waiting jobs in `wait`;
 * `paused` is the list older versions moved them to.
 */
const countSourceByKind: Record<JobCountKind, { command: 'llen' | 'zcard'; suffix: string }> = {
  waiting: { command: 'llen', suffix: 'wait' },
  active: { command: 'llen', suffix: 'active' },
  delayed: { command: 'zcard', suffix: 'delayed' },
  completed: { command: 'zcard', suffix: 'completed' },
  failed: { command: 'zcard', suffix: 'failed' },
  paused: { command: 'llen', suffix: 'paused' },
  prioritized: { command: 'zcard', suffix: 'prioritized' },
  waitingChildren: { command: 'zcard', suffix: 'waiting-children' },
};

export function countCommand(ref: QueueRef, kind: JobCountKind): KeyedCommand {
  const { command, suffix } = countSourceByKind[kind];
  return keyed(command, queueKey(ref, suffix));
}

/**
 * Read-only: the pause flag from KEYS[1] (meta), then ARGV[i] (llen or
 * zcard) of KEYS[i + 1]. One script call per queue instead of nine commands
 * halves the client-side cost of a page; its keys share the queue's hash tag.
 */
const summaryScript = `local r = { redis.call('HEXISTS', KEYS[1], 'paused') }
for i = 1, #ARGV do r[i + 1] = redis.call(ARGV[i], KEYS[i + 1]) end
return r`;

function summaryCommand(ref: QueueRef): KeyedCommand {
  const sources = jobCountKinds.map((kind) => countSourceByKind[kind]);
  const metaKey = queueKey(ref, 'meta');
  const keys = [metaKey, ...sources.map((source) => queueKey(ref, source.suffix))];
  return { key: metaKey, args: ['eval', summaryScript, keys.length, ...keys, ...sources.map((source) => source.command)] };
}

/** One count for each queue, all in one round trip (used to sort by a count). */
export async function fetchCount(client: StoreClient, refs: QueueRef[], kind: JobCountKind): Promise<number[]> {
  const replies = await runPipelined(client, refs.map((ref) => countCommand(ref, kind)));
  return replies.map(Number);
}

/** The pause flag and every count of each queue, all in one round trip. */
export async function fetchQueueSummaries(client: StoreClient, refs: QueueRef[]): Promise<QueueSummary[]> {
  const replies = (await runPipelined(client, refs.map(summaryCommand))) as number[][];
  return refs.map((ref, index) => {
    const own = replies[index]!;
    const jobCounts = Object.fromEntries(jobCountKinds.map((kind, k) => [kind, own[k + 1]!])) as JobCounts;
    return { name: ref.name, prefix: ref.prefix, isPaused: own[0] === 1, jobCounts };
  });
}
