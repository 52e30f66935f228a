import { jobCountKinds } from '../../contracts/queues.js';
import type { StoreClient } from '../stores/redis-client.js';
import { countSourceByKind, figures, readQueueFigures } from './queue-figures.js';
import { queueKey, type QueueRef } from './queue-key.js';
import { listQueuesPerCall } from './queue-states.js';

/**
 * Where a tracked row holds the pause flag (1 paused, 0 not), after the eight counts: one HEXISTS more a
 * queue read, and `state=paused`/`running` and the scrape answer from memory like the counted states.
 */
export const pausedColumn = jobCountKinds.length;

/** The key types a tracked row is read from: a write to one of these (the meta hash for the pause flag) changes it. */
export const countedKeyTypes: readonly string[] = [
  ...new Set(jobCountKinds.map((kind) => countSourceByKind[kind].type)),
  'meta',
];

/** `<prefix>:<name>:`: what every key of a queue starts with, and how the tracker names a queue. */
export const queueBase = (ref: QueueRef): string => queueKey(ref, '');

const trackedFigures = [...jobCountKinds.map((kind) => figures.count(kind)), figures.paused()];

/** Figures a tracked row holds: the eight counts and the pause flag. */
export const trackedColumns = trackedFigures.length;

/** The eight counts and the pause flag of each queue (rows in jobCountKinds order, then pausedColumn), by the figures script. */
export async function readCounts(client: StoreClient, refs: readonly QueueRef[]): Promise<number[][]> {
  return (await readQueueFigures(client, refs, trackedFigures, listQueuesPerCall)).values;
}

/** The queue base of `key` when it is `<base><type>` for one of `types`, else undefined. */
export function baseOfKeyOfTypes(key: string, types: readonly string[]): string | undefined {
  for (const type of types) {
    if (
      key.length > type.length + 1 &&
      key.endsWith(type) &&
      key.charCodeAt(key.length - type.length - 1) === 58 /* ':' */
    )
      return key.slice(0, key.length - type.length);
  }
  return undefined;
}

/**
 * The queue base of a written key when it is one of the counted status keys
 * (or the meta hash), else undefined (job hashes, events, locks: most of what a store writes).
 */
export const baseOfCountedKey = (key: string): string | undefined => baseOfKeyOfTypes(key, countedKeyTypes);
