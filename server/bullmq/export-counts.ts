import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { LuaScript } from './lua-script.js';
import { hashTag } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-key.js';

/** The states BullMQ's exportPrometheusMetrics counts, in its order (getJobCounts() with no types). */
export const exportedStates = ['active', 'completed', 'delayed', 'failed', 'prioritized', 'waiting', 'waiting-children'] as const;

/**
 * Per queue (KEYS are meta keys): the sizes of the exported states, then the
 * completed and failed totals BullMQ keeps in its metrics hashes, and the
 * enqueue time of the oldest waiting job. Read-only
 * (BullMQ's own getCounts may pop legacy markers).
 */
const script = new LuaScript(`local out = {}
for k = 1, #KEYS do
  local q = string.sub(KEYS[k], 1, -5)
  out[#out + 1] = redis.call('LLEN', q .. 'active')
  out[#out + 1] = redis.call('ZCARD', q .. 'completed')
  out[#out + 1] = redis.call('ZCARD', q .. 'delayed')
  out[#out + 1] = redis.call('ZCARD', q .. 'failed')
  out[#out + 1] = redis.call('ZCARD', q .. 'prioritized')
  out[#out + 1] = redis.call('LLEN', q .. 'wait')
  out[#out + 1] = redis.call('ZCARD', q .. 'waiting-children')
  out[#out + 1] = tonumber(redis.call('HGET', q .. 'metrics:completed', 'count') or '0') or 0
  out[#out + 1] = tonumber(redis.call('HGET', q .. 'metrics:failed', 'count') or '0') or 0
  local oldest = redis.call('LINDEX', q .. 'wait', -1)
  out[#out + 1] = oldest and (tonumber(redis.call('HGET', q .. oldest, 'timestamp') or '0') or 0) or 0
end
return out`);
const perQueue = exportedStates.length + 3;

export interface ExportCounts {
  ref: QueueRef;
  counts: number[];
  completedTotal: number;
  failedTotal: number;
  /** Enqueue time (ms) of the oldest job in `wait` (BullMQ pushes new jobs on the left); 0 when none waits. */
  oldestWaitingAt: number;
}

/**
 * What the Prometheus export says of each queue, in one script call for all
 * of `refs` (one per hash tag on a cluster). Callers pass a few hundred at a
 * time so that each call blocks the store only briefly.
 */
export async function readExportCounts(client: StoreClient, refs: QueueRef[]): Promise<ExportCounts[]> {
  const groups = new Map<string, QueueRef[]>();
  for (const ref of refs) {
    const tag = client instanceof Cluster ? hashTag(queueKey(ref, 'meta')) : '';
    const group = groups.get(tag);
    if (group) group.push(ref);
    else groups.set(tag, [ref]);
  }
  const results = await Promise.all(
    [...groups.values()].map(async (group) => {
      const reply = (await script.run(client, group.map((ref) => queueKey(ref, 'meta')), [])) as number[];
      return group.map((ref, index) => {
        const values = reply.slice(index * perQueue, (index + 1) * perQueue);
        return { ref, counts: values.slice(0, exportedStates.length), completedTotal: values[perQueue - 3]!, failedTotal: values[perQueue - 2]!, oldestWaitingAt: values[perQueue - 1]! };
      });
    }),
  );
  return results.flat();
}
