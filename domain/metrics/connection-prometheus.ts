import type { StoreHandle } from '../../server/stores/store-handle.js';
import { listQueueNames } from '../stores/list-queue-names.js';

/** Queues exported at once: enough to keep the store busy, few enough not to flood it. */
const concurrency = 64;

/**
 * BullMQ's native Prometheus export of every queue of a connection, each
 * sample labelled with the connection and the prefix (several texts: merge
 * them with mergeExpositions).
 */
export async function exportConnectionPrometheus(store: StoreHandle): Promise<string[]> {
  const queues = await listQueueNames(store);
  const texts: string[] = new Array(queues.length);
  let next = 0;
  const worker = async () => {
    while (next < queues.length) {
      const index = next++;
      const { name, prefix } = queues[index]!;
      texts[index] = await store.queue(name, prefix).exportPrometheusMetrics({ connection: store.connection.id, prefix });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queues.length) }, worker));
  return texts;
}
