import type { ChainableCommander } from 'ioredis';
import type { StoreHandle } from '../stores/store-handle.js';
import type { QueueRef } from './list-queue-names.js';
import { hashTag } from './pipelined.js';
import { queueKey } from './queue-key.js';

/**
 * Runs `commandsFor` for every queue in pipelines, one per hash tag, in
 * parallel (on a cluster a pipeline must stay on one node; all keys of a
 * BullMQ queue share its tag, in the prefix `{bull}` or the name `{mail}`;
 * on a standalone store that is one pipeline per prefix) and gives back each
 * queue's replies in order. A command error fails the whole call.
 */
export async function pipelinePerQueue(
  store: StoreHandle,
  queues: QueueRef[],
  commandsFor: (pipeline: ChainableCommander, queue: QueueRef) => void,
): Promise<unknown[][]> {
  const replies: unknown[][] = new Array(queues.length);
  const byTag = new Map<string, number[]>();
  queues.forEach((queue, index) => {
    const tag = hashTag(queueKey(queue, 'meta'));
    byTag.set(tag, [...(byTag.get(tag) ?? []), index]);
  });
  await Promise.all(
    [...byTag.values()].map(async (indexes) => {
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
