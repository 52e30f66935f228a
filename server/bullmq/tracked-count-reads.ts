import { jobCountKinds } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { countSourceByKind, figures, readQueueFigures } from './queue-figures.js';
import { queueKey, type QueueRef } from './queue-key.js';
import { listQueuesPerCall } from './queue-states.js';

/** The key types a queue's eight counts are read from: a write to one of these changes a count. */
export const countedKeyTypes: readonly string[] = [
  ...new Set(jobCountKinds.map((kind) => countSourceByKind[kind].type)),
];

/** `<prefix>:<name>:`: what every key of a queue starts with, and how the tracker names a queue. */
export const queueBase = (ref: QueueRef): string => queueKey(ref, '');

const eightCounts = jobCountKinds.map((kind) => figures.count(kind));

/** The eight counts of each queue (rows in jobCountKinds order), by the list's figures script. */
export async function readCounts(client: StoreClient, refs: readonly QueueRef[]): Promise<number[][]> {
  return (await readQueueFigures(client, refs, eightCounts, listQueuesPerCall)).values;
}

/**
 * The queue base of a written key when it is one of the counted status keys,
 * else undefined (job hashes, events, locks: most of what a store writes).
 */
export function baseOfCountedKey(key: string): string | undefined {
  for (const type of countedKeyTypes) {
    if (
      key.length > type.length + 1 &&
      key.endsWith(type) &&
      key.charCodeAt(key.length - type.length - 1) === 58 /* ':' */
    )
      return key.slice(0, key.length - type.length);
  }
  return undefined;
}
