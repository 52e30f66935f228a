import type { WorkerList } from '../../contracts/workers.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { WorkerClient } from '../../server/bullmq/client-list.js';

/** Every worker connected to the connection's queues, and how many per queue. */
export async function listWorkers({ store }: { store: StoreHandle }): Promise<WorkerList> {
  const warnings: string[] = [];
  const clients = (await store.workerClients(warnings)) ?? [];
  const workers = clients
    .map(toWorker)
    .sort((a, b) => a.queueName.localeCompare(b.queueName) || a.id.localeCompare(b.id));
  const byQueue: Record<string, number> = {};
  for (const worker of workers) byQueue[worker.queueName] = (byQueue[worker.queueName] ?? 0) + 1;
  return { workers, byQueue, warnings };
}

function toWorker({ prefix, queueName, workerName, fields }: WorkerClient) {
  return {
    queueName,
    prefix,
    id: fields.id ?? '',
    name: workerName,
    addr: fields.addr ?? '',
    age: Number(fields.age ?? 0),
    idle: Number(fields.idle ?? 0),
    db: fields.db === undefined ? null : Number(fields.db),
    cmd: fields.cmd ?? null,
    clientName: fields.name ?? '',
  };
}
