import type { StoreHandle } from '../stores/store-handle.js';
import { queueKey, type QueueRef } from '../bullmq/queue-key.js';

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

/**
 * ARGV[1] is the previous sample's time (ms); ARGV[2..] are `<prefix>:<name>:`. Waiting counts
 * `wait` and `prioritized` as BullMQ's getWaitingCount does (plus `paused`, the legacy list).
 * Finished-since counts use the completed/failed sorted sets, scored by finish time. BullMQ pushes
 * new jobs on the left of `wait`, so its oldest job is at the right end.
 */
const readingScript = `
local since = ARGV[1]
local out = {}
for i = 2, #ARGV do
  local k = ARGV[i]
  local oldest = 0
  local tail = redis.call('LINDEX', k .. 'wait', -1)
  if tail then oldest = tonumber(redis.call('HGET', k .. tail, 'timestamp') or '0') or 0 end
  out[#out + 1] = redis.call('LLEN', k .. 'wait') + redis.call('ZCARD', k .. 'prioritized') + redis.call('LLEN', k .. 'paused')
  out[#out + 1] = redis.call('LLEN', k .. 'active')
  out[#out + 1] = redis.call('ZCARD', k .. 'delayed')
  out[#out + 1] = redis.call('ZCARD', k .. 'failed')
  out[#out + 1] = redis.call('ZCARD', k .. 'completed')
  out[#out + 1] = redis.call('ZCOUNT', k .. 'completed', '(' .. since, '+inf')
  out[#out + 1] = redis.call('ZCOUNT', k .. 'failed', '(' .. since, '+inf')
  out[#out + 1] = oldest
  out[#out + 1] = redis.call('HGET', k .. 'meta', 'paused') == '1' and 1 or 0
end
return out
`;
const valuesPerQueue = 9;
/** At most this many queues per script call: each call stays short, and cost per sample is bounded. */
export const queuesPerScriptCall = 200;

/** Readings of many queues: one script call per 200 queues of a prefix, all sent together. */
export async function readQueues(store: StoreHandle, queues: QueueRef[], since: number): Promise<QueueReading[]> {
  const chunks = chunksByPrefix(queues);
  const replies = await Promise.all(
    chunks.map((chunk) => store.client.eval(readingScript, 1, queueKey(chunk[0]!, 'meta'), since, ...chunk.map((ref) => queueKey(ref, ''))) as Promise<number[]>),
  );
  return chunks.flatMap((chunk, at) => chunk.map((ref, index) => toReading(ref, replies[at]!.slice(index * valuesPerQueue, (index + 1) * valuesPerQueue).map(Number))));
}

function toReading(ref: QueueRef, values: number[]): QueueReading {
  const [waiting, active, delayed, failed, completed, completedSince, failedSince, oldestWaitingAt, paused] = values as [number, number, number, number, number, number, number, number, number];
  return { ref, waiting, active, delayed, failed, completed, completedSince, failedSince, oldestWaitingAt, paused: paused === 1 };
}

function chunksByPrefix(queues: QueueRef[]): QueueRef[][] {
  const byPrefix = new Map<string, QueueRef[]>();
  for (const ref of queues) byPrefix.set(ref.prefix, [...(byPrefix.get(ref.prefix) ?? []), ref]);
  return [...byPrefix.values()].flatMap((refs) =>
    Array.from({ length: Math.ceil(refs.length / queuesPerScriptCall) }, (_, i) => refs.slice(i * queuesPerScriptCall, (i + 1) * queuesPerScriptCall)),
  );
}
