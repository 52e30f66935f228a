import type { QueueSummary } from '../../contracts/metrics.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from '../../server/bullmq/list-queue-names.js';
import { queueKey } from '../../server/bullmq/queue-key.js';
import { LuaScript } from '../../server/bullmq/lua-script.js';

/** BullMQ states in the order the script returns them. */
export const jobStates = ['active', 'completed', 'delayed', 'failed', 'prioritized', 'waiting', 'waiting-children'] as const;

/**
 * Per queue (ARGV[2..] are `<prefix>:<name>:`): the sizes BullMQ's getCounts
 * reads (lists by LLEN, sorted sets by ZCARD), the paused flag, and the sums
 * of the newest ARGV[1] completed and failed one-minute points. KEYS[1] is a
 * key of the first queue, so that a cluster runs it on the node holding the
 * (hash-tagged) prefix, as BullMQ's own scripts do.
 */
const summaryScript = new LuaScript(`
local window = tonumber(ARGV[1])
local out = {}
local function sum(key)
  local total = 0
  for _, point in ipairs(redis.call('LRANGE', key, 0, window - 1)) do total = total + (tonumber(point) or 0) end
  return total
end
for i = 2, #ARGV do
  local k = ARGV[i]
  out[#out + 1] = redis.call('LLEN', k .. 'active')
  out[#out + 1] = redis.call('ZCARD', k .. 'completed')
  out[#out + 1] = redis.call('ZCARD', k .. 'delayed')
  out[#out + 1] = redis.call('ZCARD', k .. 'failed')
  out[#out + 1] = redis.call('ZCARD', k .. 'prioritized')
  out[#out + 1] = redis.call('LLEN', k .. 'wait')
  out[#out + 1] = redis.call('ZCARD', k .. 'waiting-children')
  out[#out + 1] = redis.call('HGET', k .. 'meta', 'paused') == '1' and 1 or 0
  out[#out + 1] = sum(k .. 'metrics:completed:data')
  out[#out + 1] = sum(k .. 'metrics:failed:data')
end
return out
`);
const valuesPerQueue = jobStates.length + 3;
/** Queues per script call: keeps each call short so the store is never blocked for long. */
const queuesPerCall = 500;

/**
 * Counts, paused flag and completed/failed rates of many queues: one small
 * Lua call per 500 queues, all sent at once, so a thousand queues cost one
 * round trip and a few milliseconds of store time instead of 10,000 commands.
 */
export async function summarizeQueues(store: StoreHandle, queues: QueueRef[], windowMinutes: number): Promise<QueueSummary[]> {
  const chunks = chunkByPrefix(queues);
  const replies = await Promise.all(
    chunks.map((chunk) =>
      summaryScript.run(store.client, [queueKey(chunk[0]!, 'meta')], [windowMinutes, ...chunk.map((ref) => queueKey(ref, ''))]) as Promise<number[]>,
    ),
  );
  return chunks.flatMap((chunk, chunkIndex) =>
    chunk.map((ref, index) => {
      const values = replies[chunkIndex]!.slice(index * valuesPerQueue, (index + 1) * valuesPerQueue).map(Number);
      const [paused, completed, failed] = values.slice(jobStates.length);
      return {
        queueName: ref.name,
        prefix: ref.prefix,
        isPaused: paused === 1,
        counts: Object.fromEntries(jobStates.map((state, at) => [state, values[at]!])),
        rates: { completed: rate(completed!, windowMinutes), failed: rate(failed!, windowMinutes) },
      };
    }),
  );
}

/** Runs of at most `queuesPerCall` queues sharing a prefix, in arrival order within each prefix. */
function chunkByPrefix(queues: QueueRef[]): QueueRef[][] {
  const byPrefix = new Map<string, QueueRef[]>();
  for (const ref of queues) {
    const refs = byPrefix.get(ref.prefix);
    if (refs) refs.push(ref);
    else byPrefix.set(ref.prefix, [ref]);
  }
  return [...byPrefix.values()].flatMap((refs) =>
    Array.from({ length: Math.ceil(refs.length / queuesPerCall) }, (_, i) => refs.slice(i * queuesPerCall, (i + 1) * queuesPerCall)),
  );
}

const rate = (total: number, windowMinutes: number) => ({ total, perMinute: total / windowMinutes });
