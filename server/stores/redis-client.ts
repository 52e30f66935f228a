import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { StoreConnection } from './store-connection.js';
import { assertClientCanParse } from './client-url.js';
import { guardedConnector } from './guarded-connector.js';
import type { TargetPolicy } from './target-policy.js';

export type StoreClient = Redis | Cluster;

export interface StoreTimeouts {
  /** How long to wait for a TCP/TLS connection to a node. */
  connectMs: number;
  /** How long one command may take before it fails (a stalled store must not hang requests). */
  commandMs: number;
}

/** What a client needs to know to reach a store. */
export type StoreEndpoint = Pick<StoreConnection, 'url' | 'tls' | 'cluster'>;

export interface StoreClientOptions {
  /** false: a one-shot client (connection tests) that gives up instead of reconnecting. */
  reconnect?: boolean;
  /** SERVICE_CONNECTION_ALLOW in force: every connection the client opens is checked first. */
  policy?: TargetPolicy | undefined;
}

export const defaultStoreTimeouts: StoreTimeouts = { connectMs: 1500, commandMs: 2000 };

function tlsOptions(connection: StoreEndpoint): RedisOptions['tls'] {
  if (!connection.tls.enabled) return undefined;
  return { rejectUnauthorized: !connection.tls.allowSelfSigned };
}

/**
 * Options shared by standalone and cluster clients: fail fast rather than
 * queue forever, so an unreachable store becomes a 503 in about two seconds,
 * while ioredis keeps reconnecting in the background and recovers on its own.
 */
function commonOptions(
  connection: StoreEndpoint,
  timeouts: StoreTimeouts,
  reconnect: boolean,
  policy: TargetPolicy | undefined,
): RedisOptions {
  return {
    ...(policy?.entries ? { Connector: guardedConnector(policy) as unknown as RedisOptions['Connector'] } : {}),
    lazyConnect: true,
    connectTimeout: timeouts.connectMs,
    commandTimeout: timeouts.commandMs,
    maxRetriesPerRequest: 1,
    retryStrategy: reconnect ? (attempt) => Math.min(attempt * 200, 1000) : () => null,
    tls: tlsOptions(connection),
    connectionName: 'bullpen',
  };
}

function seedNodes(urls: string): Array<{ host: string; port: number }> {
  return urls.split(',').map((raw) => {
    const url = new URL(raw.trim());
    return { host: url.hostname, port: Number(url.port || 6379) };
  });
}

export function createStoreClient(
  connection: StoreEndpoint,
  timeouts: StoreTimeouts = defaultStoreTimeouts,
  { reconnect = true, policy }: StoreClientOptions = {},
): StoreClient {
  assertClientCanParse(connection.url, 'saved connection URL (update the connection)');
  const options = commonOptions(connection, timeouts, reconnect, policy);
  if (!connection.cluster) return new Redis(connection.url, options);
  const first = new URL(connection.url.split(',')[0]!.trim());
  return new Cluster(seedNodes(connection.url), {
    lazyConnect: true,
    enableOfflineQueue: true,
    clusterRetryStrategy: reconnect ? (attempt) => Math.min(attempt * 200, 1000) : () => null,
    // With an allow-list, seeds keep their names: the guarded connector resolves and checks them once.
    ...(policy?.entries
      ? { dnsLookup: (hostname: string, done: (error: null, address: string) => void) => done(null, hostname) }
      : {}),
    redisOptions: {
      ...options,
      username: decodeURIComponent(first.username) || undefined,
      password: decodeURIComponent(first.password) || undefined,
    },
  });
}

/**
 * A dedicated connection for blocking reads (XREAD BLOCK): same store and
 * credentials, but no client-side command timeout and unlimited retries.
 */
export function duplicateForBlocking(client: StoreClient): StoreClient {
  const blockingOptions = { commandTimeout: undefined, maxRetriesPerRequest: null };
  if (client instanceof Cluster) {
    return client.duplicate(undefined, { redisOptions: { ...client.options.redisOptions, ...blockingOptions } });
  }
  return client.duplicate(blockingOptions);
}
