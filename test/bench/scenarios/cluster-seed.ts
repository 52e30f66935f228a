import { Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';

/** Hash-tagged names under a plain prefix: spread over the masters. */
export const spreadPrefix = 'bull';
/** Plain names under a hash-tagged prefix: every queue on the prefix's one slot. */
export const slotPrefix = '{fleet}';
/** The one queue with real BullMQ jobs (under `spreadPrefix`), for the job read. */
export const readerQueue = '{reader}';

/** The queues of a store of `count`: half spread by hash-tagged names, half plain names under a tagged prefix, and the reader. */
export function fleetNames(count: number): Array<{ prefix: string; name: string }> {
  const names = [{ prefix: spreadPrefix, name: readerQueue }];
  for (let i = 1; i < count; i++) {
    const id = String(i).padStart(5, '0');
    names.push(i % 2 === 0 ? { prefix: spreadPrefix, name: `{q-${id}}` } : { prefix: slotPrefix, name: `fleet-${id}` });
  }
  return names;
}

/**
 * The same `count` queues into a standalone store or a cluster (a client with auto-pipelining: each
 * command goes to its slot's master, batched per node): each a meta hash, two waiting ids (but every
 * 10th), completed and failed sets (failed sizes vary); the reader gets real jobs through BullMQ.
 */
export async function seedFleet(client: Redis | Cluster, count: number): Promise<void> {
  const fleet = fleetNames(count).slice(1);
  for (let start = 0; start < fleet.length; start += 500) {
    const writes: Array<Promise<unknown>> = [];
    fleet.slice(start, start + 500).forEach(({ prefix, name }, offset) => {
      const i = start + offset;
      const key = `${prefix}:${name}`;
      writes.push(client.hset(`${key}:meta`, 'opts.maxLenEvents', '10000', 'version', 'bullmq:6.7.0'));
      if (i % 10 !== 0) writes.push(client.rpush(`${key}:wait`, '1', '2'));
      writes.push(client.zadd(`${key}:completed`, 1, '3', 2, '4'));
      for (let f = 0; f <= i % 13; f++) writes.push(client.zadd(`${key}:failed`, f, `f${f}`));
    });
    await Promise.all(writes);
  }
  const reader = new Queue(readerQueue, { connection: client, prefix: spreadPrefix });
  await reader.addBulk(Array.from({ length: 10 }, (_, n) => ({ name: 'invoice', data: { n, lines: [{ qty: 2 }] } })));
  await reader.close();
}
