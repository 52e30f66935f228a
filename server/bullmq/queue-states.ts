import { jobCountKinds, type JobCountKind, type JobCounts, type QueueSummary } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { Cluster } from 'ioredis';
import { hashTag, keyed, type KeyedCommand } from './pipelined.js';
import { LuaScript } from './lua-script.js';
import { queueKey, type QueueRef } from './queue-key.js';

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
 * Read-only, for many queues at once: KEYS are their meta keys; per queue,
 * the pause flag and then ARGV[i] (llen or zcard) of `<queue>:<ARGV[n + i]>`
 * (the meta key without `meta` is the queue key with its colon),
 * where n = #ARGV / 2. One script call for a whole page (or, to sort, for
 * every queue) instead of one per queue: the cost of a list is one round
 * trip and one reply, whatever the page size.
 */
const countsScript = new LuaScript(`local n = #ARGV / 2
local withPause = n > 1
local out = {}
for k = 1, #KEYS do
  local base = string.sub(KEYS[k], 1, -5)
  if withPause then out[#out + 1] = redis.call('HEXISTS', KEYS[k], 'paused') end
  for i = 1, n do out[#out + 1] = redis.call(ARGV[i], base .. ARGV[n + i]) end
end
return out`);

/**
 * Runs the counts script over `refs`: one call on a standalone store; on a
 * cluster one call per hash tag (a script's keys must share a slot), in parallel.
 */
async function runCounts(client: StoreClient, refs: QueueRef[], kinds: readonly JobCountKind[]): Promise<number[][]> {
  const sources = kinds.map((kind) => countSourceByKind[kind]);
  const args = [...sources.map((source) => source.command), ...sources.map((source) => source.suffix)];
  const perQueue = kinds.length + (kinds.length > 1 ? 1 : 0);
  const groups = client instanceof Cluster ? groupByHashTag(refs) : [refs.map((_, index) => index)];
  const values = new Array<number[]>(refs.length);
  await Promise.all(
    groups.map(async (indexes) => {
      if (indexes.length === 0) return;
      const reply = (await countsScript.run(client, indexes.map((index) => queueKey(refs[index]!, 'meta')), args)) as number[];
      indexes.forEach((index, position) => (values[index] = reply.slice(position * perQueue, (position + 1) * perQueue)));
    }),
  );
  return values;
}

function groupByHashTag(refs: QueueRef[]): number[][] {
  const groups = new Map<string, number[]>();
  refs.forEach((ref, index) => {
    const tag = hashTag(queueKey(ref, 'meta'));
    const group = groups.get(tag);
    if (group) group.push(index);
    else groups.set(tag, [index]);
  });
  return [...groups.values()];
}

/** One count for each queue, in one script call (used to sort by a count). */
export async function fetchCount(client: StoreClient, refs: QueueRef[], kind: JobCountKind): Promise<number[]> {
  return (await runCounts(client, refs, [kind])).map((values) => values[0]!);
}

/** The pause flag and every count of each queue, in one script call. */
export async function fetchQueueSummaries(client: StoreClient, refs: QueueRef[]): Promise<QueueSummary[]> {
  const replies = await runCounts(client, refs, jobCountKinds);
  return refs.map((ref, index) => {
    const own = replies[index]!;
    const jobCounts = Object.fromEntries(jobCountKinds.map((kind, k) => [kind, own[k + 1]!])) as JobCounts;
    return { name: ref.name, prefix: ref.prefix, isPaused: own[0] === 1, jobCounts };
  });
}
