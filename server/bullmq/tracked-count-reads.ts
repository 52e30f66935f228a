import type { Redis } from 'ioredis';
import { jobCountKinds } from '../../contracts/queues.js';
import { countSourceByKind, figures, readQueueFigures } from './queue-figures.js';
import { queueKey, type QueueRef } from './queue-key.js';
import { listQueuesPerCall } from './queue-states.js';
import type { StoreClient } from '../stores/redis-client.js';

/** The key types a queue's eight counts are read from: a changed key of one of these types changes a count. */
export const countedKeyTypes: readonly string[] = [...new Set(jobCountKinds.map((kind) => countSourceByKind[kind].type))];

/** `<prefix>:<name>:`: what every key of a queue starts with, and how the tracker names a queue. */
export const queueBase = (ref: QueueRef): string => queueKey(ref, '');

const eightCounts = jobCountKinds.map((kind) => figures.count(kind));

/**
 * The eight counts of each queue (rows in jobCountKinds order), read so that
 * Redis notices later changes. Redis 7.0 tracks the keys a command names but
 * not those a script reads inside, and a script run on a tracking connection
 * re-registers its declared keys on every call it makes (measured: 25×
 * slower). So the tracking connection `reader` sends one EXISTS naming every
 * counted key of these queues, and once it has answered (from then on a
 * write to any of them sends a notice), the store's own client runs the
 * figures script that reads the counts. A write between the two is both read
 * and noticed (one needless re-read later); none can be missed.
 */
export async function readCountsTracked(reader: Redis, client: StoreClient, refs: readonly QueueRef[]): Promise<number[][]> {
  const keys: string[] = [];
  for (const ref of refs) for (const type of countedKeyTypes) keys.push(queueKey(ref, type));
  await reader.call('EXISTS', keys);
  return (await readQueueFigures(client, refs, eightCounts, listQueuesPerCall)).values;
}

/** The queue base of a changed key, when it is one of the counted status keys (else undefined). */
export function baseOfCountedKey(key: string): string | undefined {
  for (const type of countedKeyTypes) {
    if (key.length > type.length + 1 && key.endsWith(type) && key.charCodeAt(key.length - type.length - 1) === 58 /* ':' */) return key.slice(0, key.length - type.length);
  }
  return undefined;
}
