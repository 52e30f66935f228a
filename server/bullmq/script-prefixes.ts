import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { keyed, runPipelined } from './pipelined.js';
import { queueKey } from './queue-key.js';

/**
 * The candidate prefixes a read script may try for a queue. A standalone
 * store: all of them, the script picks the first holding the queue. A
 * cluster: a script runs on one node, so with several prefixes the queue's
 * prefix is found first (EXISTS of each meta key, one pipelined round trip);
 * an empty list means the queue exists under none.
 */
export async function scriptPrefixes(
  client: StoreClient,
  queueName: string,
  prefixes: readonly string[],
): Promise<string[]> {
  if (!(client instanceof Cluster) || prefixes.length <= 1) return [...prefixes];
  const exists = await runPipelined(
    client,
    prefixes.map((prefix) => keyed('exists', queueKey({ prefix, name: queueName }, 'meta'))),
  );
  const found = prefixes.find((_, index) => exists[index] === 1);
  return found === undefined ? [] : [found];
}
