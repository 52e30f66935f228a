import type { QueueSummary } from '../../contracts/metrics.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from '../stores/list-queue-names.js';
import { pipelinePerQueue } from '../stores/pipeline-per-queue.js';
import { queueKey } from '../stores/queue-key.js';

/** BullMQ states and how their size is read: lists by LLEN, sorted sets by ZCARD (as BullMQ's getCounts does). */
const stateKeys = [
  ['active', 'active', 'llen'],
  ['completed', 'completed', 'zcard'],
  ['delayed', 'delayed', 'zcard'],
  ['failed', 'failed', 'zcard'],
  ['prioritized', 'prioritized', 'zcard'],
  ['waiting', 'wait', 'llen'],
  ['waiting-children', 'waiting-children', 'zcard'],
] as const;

export const jobStates = stateKeys.map(([state]) => state);

/**
 * Counts, paused flag and completed/failed rates of many queues in one
 * pipelined round trip (per prefix): 10 commands per queue, no Lua, no
 * per-queue round trips, so a thousand queues cost one request.
 */
export async function summarizeQueues(store: StoreHandle, queues: QueueRef[], windowMinutes: number): Promise<QueueSummary[]> {
  const replies = await pipelinePerQueue(store, queues, (pipeline, ref) => {
    for (const [, key, command] of stateKeys) pipeline[command](queueKey(ref, key));
    pipeline.hget(queueKey(ref, 'meta'), 'paused');
    pipeline.lrange(queueKey(ref, 'metrics:completed:data'), 0, windowMinutes - 1);
    pipeline.lrange(queueKey(ref, 'metrics:failed:data'), 0, windowMinutes - 1);
  });
  return queues.map((ref, index) => {
    const reply = replies[index]!;
    const counts = Object.fromEntries(stateKeys.map(([state], at) => [state, Number(reply[at])]));
    const [paused, completed, failed] = reply.slice(stateKeys.length) as [string | null, string[], string[]];
    return {
      queueName: ref.name,
      prefix: ref.prefix,
      isPaused: paused === '1',
      counts,
      rates: { completed: rate(completed, windowMinutes), failed: rate(failed, windowMinutes) },
    };
  });
}

function rate(points: string[], windowMinutes: number) {
  const total = points.reduce((sum, point) => sum + (Number(point) || 0), 0);
  return { total, perMinute: total / windowMinutes };
}
