import type { Queue } from 'bullmq';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import { keyed, runPipelined } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-keys.js';

export interface QueueTarget {
  store: StoreHandle;
  queueName: string;
  /** One of the connection's prefixes; without it, the first under which the queue exists. */
  prefix?: string | undefined;
}

export interface ResolvedQueue {
  ref: QueueRef;
  queue: Queue;
}

/**
 * Finds an existing queue (its meta key is there) before anything touches it:
 * a BullMQ Queue must not be created for a name that is not a queue, and a
 * queue that does not exist is a 404, never an empty success.
 */
export async function resolveQueue({ store, queueName, prefix }: QueueTarget): Promise<ResolvedQueue> {
  if (prefix !== undefined && !store.prefixes.includes(prefix)) {
    throw new AppError('BAD_REQUEST', `Prefix "${prefix}" is not one of the connection's prefixes (${store.prefixes.join(', ')})`, { prefix });
  }
  const candidates = (prefix === undefined ? store.prefixes : [prefix]).map((p): QueueRef => ({ name: queueName, prefix: p }));
  const exists = await runPipelined(store.client, candidates.map((ref) => keyed('exists', queueKey(ref, 'meta'))));
  const ref = candidates.find((_, index) => exists[index] === 1);
  if (!ref) {
    throw new AppError('NOT_FOUND', `Queue "${queueName}" was not found on connection "${store.connection.name}"`, { queueName });
  }
  return { ref, queue: bullmqQueue(store, ref) };
}

/**
 * BullMQ 6 refuses ':' in queue names, yet stores hold such queues (older
 * clients, or a prefix that itself contains ':'). Its keys are
 * `<prefix>:<name>:...`, so moving the name's head into the prefix addresses
 * exactly the same keys.
 */
function bullmqQueue(store: StoreHandle, ref: QueueRef): Queue {
  const cut = ref.name.lastIndexOf(':');
  if (cut < 0) return store.queue(ref.name, ref.prefix);
  return store.queue(ref.name.slice(cut + 1), `${ref.prefix}:${ref.name.slice(0, cut)}`);
}

/** Destructive routes repeat the queue name: a mismatch is a 400 before anything is touched. */
export function requireConfirmation(queueName: string, confirmName: string | undefined): void {
  if (confirmName !== queueName) {
    throw new AppError('CONFIRMATION_MISMATCH', `confirmName must equal the queue name "${queueName}"`, { queueName });
  }
}
