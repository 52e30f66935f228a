import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import type { QueueRef } from './list-queue-names.js';
import { queueKey } from './queue-key.js';
import { resolveQueuePrefix } from './queue-prefix.js';

/** The queue a route names, under the requested (or default) prefix; 404 when it has no meta key. */
export async function findQueue(store: StoreHandle, name: string, prefix?: string): Promise<QueueRef> {
  const ref = { prefix: resolveQueuePrefix(store, prefix), name };
  if ((await store.client.exists(queueKey(ref, 'meta'))) === 0) {
    throw new AppError('NOT_FOUND', `Queue ${name} was not found under prefix ${ref.prefix}`, { queueName: name });
  }
  return ref;
}
