import type { QueueDetail } from '../../contracts/queues.js';
import { matchWorker } from '../../server/bullmq/client-list.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { QueueOnStore } from '../../server/bullmq/resolve-queue.js';

const optionalNumber = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * Worker connections are named after the queue; CLIENT LIST gives their id,
 * address and ages. BullMQ's getWorkers puts the queue name in `name` and the
 * client name in `rawname`; the Worker's own name is the client name's tail.
 */
function toWorker(ref: QueueRef, client: Record<string, string>) {
  const clientName = client.rawname ?? client.name ?? '';
  return {
    id: client.id ?? '',
    name: matchWorker(clientName, [ref.prefix])?.workerName ?? null,
    clientName,
    addr: client.addr ?? '',
    age: Number(client.age ?? 0),
    idle: Number(client.idle ?? 0),
  };
}

/** The list entry of one queue plus its workers, job schedulers and meta. */
export async function getQueue({ store, queue: { ref, queue } }: QueueOnStore): Promise<QueueDetail> {
  const [[summary], workers, schedulersCount, meta] = await Promise.all([
    store.queueSummaries([ref]),
    queue.getWorkers(),
    queue.getJobSchedulersCount(),
    queue.getMeta(),
  ]);
  const rateLimitedForMs = Math.max(0, await queue.getRateLimitTtl());
  const list = workers.map((worker) => toWorker(ref, worker));
  return {
    ...summary!,
    workers: { count: list.length, list },
    schedulersCount,
    meta: {
      concurrency: optionalNumber(meta.concurrency),
      max: optionalNumber(meta.max),
      duration: optionalNumber(meta.duration),
      maxLenEvents: optionalNumber(meta.maxLenEvents),
      version: typeof meta.version === 'string' ? meta.version : null,
    },
    rateLimitedForMs,
    protection: store.connection.protection,
  };
}
