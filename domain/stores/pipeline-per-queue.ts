import type { ChainableCommander } from 'ioredis';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from './list-queue-names.js';

/**
 * Runs `commandsFor` for every queue in pipelines (one round trip per
 * prefix; on a cluster a pipeline must stay within one hash slot, which
 * BullMQ's `{tag}` prefixes guarantee) and gives back each queue's replies in
 * order. A command error fails the whole call.
 */
export async function pipelinePerQueue(
  store: StoreHandle,
  queues: QueueRef[],
  commandsFor: (pipeline: ChainableCommander, queue: QueueRef) => void,
): Promise<unknown[][]> {
  const replies: unknown[][] = new Array(queues.length);
  const byPrefix = new Map<string, number[]>();
  queues.forEach((queue, index) => byPrefix.set(queue.prefix, [...(byPrefix.get(queue.prefix) ?? []), index]));
  await Promise.all(
    [...byPrefix.values()].map(async (indexes) => {
      const pipeline = store.client.pipeline();
      const sizes = indexes.map((index) => {
        const before = pipeline.length;
        commandsFor(pipeline, queues[index]!);
        return pipeline.length - before;
      });
      const results = (await pipeline.exec()) ?? [];
      let at = 0;
      indexes.forEach((index, position) => {
        replies[index] = results.slice(at, at + sizes[position]!).map(([error, value]) => {
          if (error) throw error;
          return value;
        });
        at += sizes[position]!;
      });
    }),
  );
  return replies;
}
