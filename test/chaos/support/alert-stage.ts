import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, Worker } from 'bullmq';
import { request } from '../../helpers/app.js';

/** One request a webhook receiver got: its event id, when it arrived, and when it was answered 2xx (null: never). */
export interface Arrival {
  path: string;
  eventId: string;
  arrivedAt: number;
  answeredAt: number | null;
}

/**
 * A webhook receiver on loopback. `holdMs: null` never answers (a hung receiver: the request stays
 * open until the sender gives up); otherwise each request is answered 200 after `holdMs`.
 */
export function webhookReceiver(holdMs: number | null) {
  const arrivals: Arrival[] = [];
  const listeners: Array<(arrival: Arrival) => void> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    const arrival: Arrival = {
      path: req.url ?? '',
      eventId: String(req.headers['x-bullpen-event-id']),
      arrivedAt: Date.now(),
      answeredAt: null,
    };
    arrivals.push(arrival);
    for (const listener of listeners) listener(arrival);
    if (holdMs === null) return;
    setTimeout(() => res.end('ok', () => (arrival.answeredAt = Date.now())), holdMs);
  });
  return {
    arrivals,
    onArrival: (listener: (arrival: Arrival) => void) => listeners.push(listener),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Creates webhook destinations named `name-0…` at `base/name-n`; answers their ids. */
export async function createDestinations(api: string, base: string, name: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const created = await request(`${api}/alerts/destinations`, {
      method: 'POST',
      body: { type: 'webhook', name: `${name}-${n}`, url: `${base}/${name}-${n}` },
    });
    if (created.status !== 201) throw new Error(`destination: ${created.status} ${JSON.stringify(created.body)}`);
    ids.push(created.body.id as string);
  }
  return ids;
}

/** A failed_count rule (threshold 1 in a minute) on the queues `include` names, notifying `destinationIds`. */
export async function createFailureRule(
  api: string,
  name: string,
  include: string[],
  destinationIds: string[],
): Promise<string> {
  const body = {
    name,
    type: 'failed_count',
    threshold: 1,
    windowMinutes: 1,
    queues: { include, exclude: [] },
    destinationIds,
  };
  const created = await request(`${api}/c/main/alerts/rules`, { method: 'POST', body });
  if (created.status !== 201) throw new Error(`rule: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

/** Adds `count` jobs to a queue and fails each once through a real Worker; resolves when all failed. */
export async function failJobs(prefix: string, queueName: string, count: number): Promise<void> {
  const connection = { host: '127.0.0.1', port: 6379 };
  const queue = new Queue(queueName, { connection, prefix });
  const worker = new Worker(
    queueName,
    async () => {
      throw new Error('declined');
    },
    { connection, prefix },
  );
  const failed = new Promise<void>((resolve) => {
    let n = 0;
    worker.on('failed', () => ++n === count && resolve());
  });
  await queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: `j${i}`, data: {} })));
  await failed;
  await worker.close();
  await queue.close();
}
