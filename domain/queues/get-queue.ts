import type { QueueDetail } from '../../contracts/queues.js';
import { fetchQueueSummaries } from './queue-states.js';
import { resolveQueue, type QueueTarget } from './resolve-queue.js';

const optionalNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Worker connections are named after the queue; CLIENT LIST gives their id, address and ages. */
function toWorker(client: Record<string, string>) {
  return {
    id: client.id ?? '',
    name: client.rawname ?? client.name ?? '',
    addr: client.addr ?? '',
    age: Number(client.age ?? 0),
    idle: Number(client.idle ?? 0),
  };
}

/** The list entry of one queue plus its workers, job schedulers and meta. 404 when it does not exist. */
export async function getQueue(target: QueueTarget): Promise<QueueDetail> {
  const { ref, queue } = await resolveQueue(target);
  const [[summary], workers, schedulersCount, meta] = await Promise.all([
    fetchQueueSummaries(target.store.client, [ref]),
    queue.getWorkers(),
    queue.getJobSchedulersCount(),
    queue.getMeta(),
  ]);
  const list = workers.map(toWorker);
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
  };
}
