import { Cluster } from 'ioredis';
import { AppError } from '../../contracts/app-error.js';
import type { StoreClient } from '../stores/redis-client.js';
import { hashTag } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-key.js';

/**
 * On a cluster, a queue with no hash tag in its prefix or name has its keys in different slots: no
 * BullMQ script (nor a pipeline of its keys) can run on it, Redis answers CROSSSLOT. Such a queue is
 * listed (found by the scan of every master) with zero counts, and its routes answer 400.
 */
export function spansSlots(cluster: StoreClient | boolean, ref: QueueRef): boolean {
  const key = queueKey(ref, 'meta');
  return (cluster === true || cluster instanceof Cluster) && hashTag(key) === key;
}

/** The refusal of a route on a queue whose keys span slots (see spansSlots). */
export const spansSlotsError = (queueName: string) =>
  new AppError(
    'UNSUPPORTED_QUEUE_NAME',
    `Queue "${queueName}" has no hash tag in its name or prefix, so its keys fall in different slots of this cluster and BullMQ cannot run on it (CROSSSLOT); use a hash-tagged name ({${queueName}}) or prefix`,
    { queueName },
  );
