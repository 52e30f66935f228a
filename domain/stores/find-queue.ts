import type { StoreHandle } from '../../server/stores/store-handle.js';
import { AppError } from '../errors.js';
import { keyed, runPipelined } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-key.js';
import { resolveQueuePrefix } from './queue-prefix.js';

/**
 * The queue a route names: under the requested prefix, or else the first of
 * the connection's prefixes where it exists. 404 when it has no meta key, so
 * nothing ever acts on (or creates) a queue that is not there.
 */
export async function findQueue(store: StoreHandle, name: string, prefix?: string): Promise<QueueRef> {
  const prefixes = prefix === undefined ? store.prefixes : [resolveQueuePrefix(store, prefix)];
  const candidates = prefixes.map((candidate): QueueRef => ({ prefix: candidate, name }));
  const exists = await runPipelined(store.client, candidates.map((ref) => keyed('exists', queueKey(ref, 'meta'))));
  const found = candidates.find((_, index) => exists[index] === 1);
  if (!found) {
    const where = prefix === undefined ? `on connection "${store.connection.name}"` : `under prefix "${prefix}"`;
    throw new AppError('NOT_FOUND', `Queue "${name}" was not found ${where}`, { queueName: name });
  }
  return found;
}
