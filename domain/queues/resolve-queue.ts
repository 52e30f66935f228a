import type { Queue } from 'bullmq';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import { findQueue } from '../stores/find-queue.js';
import type { QueueRef } from '../stores/queue-key.js';

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

/** The existing queue a route names (404 otherwise, see findQueue) and a BullMQ handle on it. */
export async function resolveQueue({ store, queueName, prefix }: QueueTarget): Promise<ResolvedQueue> {
  const ref = await findQueue(store, queueName, prefix);
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
