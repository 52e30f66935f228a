import { Redis } from 'ioredis';
import type { StoreHandle } from '../stores/store-handle.js';
import { introspect } from './introspection.js';
import { masterNodes } from './master-nodes.js';

/** A BullMQ worker connection as CLIENT LIST shows it. */
export interface WorkerClient {
  prefix: string;
  queueName: string;
  /** The Worker's `name` option; null for an unnamed worker. */
  workerName: string | null;
  fields: Record<string, string>;
}

const workerMarker = ':w:';
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The worker connections of the store's queues, from one CLIENT LIST per
 * master. BullMQ names a worker's blocking connection
 * `<prefix>:<base64(queue)>` or `<prefix>:<base64(queue)>:w:<worker name>`.
 * null (and a warning) when the provider does not allow CLIENT LIST.
 */
export async function listWorkerClients(store: StoreHandle, warnings: string[]): Promise<WorkerClient[] | null> {
  const nodes = await masterNodes(store.client);
  const lists = await introspect(warnings, 'CLIENT LIST (worker discovery)', () =>
    Promise.all(nodes.map((node) => node.client('LIST') as Promise<string>)),
  );
  if (lists === null) return null;
  const db = store.client instanceof Redis ? (store.client.options.db ?? 0) : 0;
  const perNode = lists.map((list) =>
    parseClientList(list)
      .filter((fields) => fields.db === undefined || Number(fields.db) === db)
      .flatMap((fields) => {
        const worker = matchWorker(fields.name ?? '', store.prefixes);
        return worker ? [{ ...worker, fields }] : [];
      }),
  );
  return perNode.length === 1 ? perNode[0]! : busiestNodePerQueue(perNode);
}

/**
 * On a cluster a worker's connection shows up on every master it touched
 * (slot refreshes), under the same name. As BullMQ's getWorkers does, count
 * each queue's workers on the master that lists most of them.
 */
function busiestNodePerQueue(perNode: WorkerClient[][]): WorkerClient[] {
  const best = new Map<string, WorkerClient[]>();
  for (const clients of perNode) {
    const byQueue = new Map<string, WorkerClient[]>();
    for (const client of clients) {
      const id = `${client.prefix}\u0000${client.queueName}`;
      byQueue.set(id, [...(byQueue.get(id) ?? []), client]);
    }
    for (const [id, group] of byQueue) if (group.length > (best.get(id)?.length ?? 0)) best.set(id, group);
  }
  return [...best.values()].flat();
}

export function parseClientList(list: string): Array<Record<string, string>> {
  return list
    .split(/\r?\n/)
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const fields: Record<string, string> = {};
      for (const pair of line.trim().split(' ')) {
        const at = pair.indexOf('=');
        if (at > 0) fields[pair.slice(0, at)] = pair.slice(at + 1);
      }
      return fields;
    });
}

/** Which queue a client name belongs to, if it is a worker of one under the given prefixes. */
export function matchWorker(clientName: string, prefixes: string[]): Omit<WorkerClient, 'fields'> | null {
  for (const prefix of prefixes) {
    if (!clientName.startsWith(`${prefix}:`)) continue;
    const rest = clientName.slice(prefix.length + 1);
    const marker = rest.indexOf(workerMarker);
    const encoded = marker === -1 ? rest : rest.slice(0, marker);
    if (!base64Pattern.test(encoded)) continue;
    const workerName = marker === -1 ? null : rest.slice(marker + workerMarker.length);
    return { prefix, queueName: Buffer.from(encoded, 'base64').toString('utf8'), workerName };
  }
  return null;
}
