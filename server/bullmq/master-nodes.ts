import { Cluster, type Redis } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';

/**
 * The nodes that hold keys: the client itself on a standalone store, every
 * master on a cluster. A lazily connected cluster knows no nodes until its
 * first command, so wake it with a PING first.
 */
export async function masterNodes(client: StoreClient): Promise<Redis[]> {
  if (!(client instanceof Cluster)) return [client];
  if (client.nodes('master').length === 0) await client.ping();
  return client.nodes('master');
}
