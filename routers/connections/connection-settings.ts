import type { CreateConnectionInput } from '../../contracts/connections.js';
import { isSeedList, storeKindOf, usesTls } from '../../contracts/store-url.js';
import type { StoreEndpoint } from '../../server/stores/redis-client.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';
import { AppError } from '../../contracts/app-error.js';
import { assertClientCanParse } from '../../server/stores/client-url.js';

/** Everything a saved connection is made of, checked as a whole. */
export type ConnectionSettings = Pick<
  StoreConnection,
  'name' | 'url' | 'environment' | 'prefixes' | 'isDefault' | 'tls' | 'cluster' | 'protection'
>;

export const defaultPrefix = 'bull';
/** BullMQ's PostgreSQL backend's own default schema. */
export const defaultSchema = 'bullmq';

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `Invalid input: ${field}: ${message}`, {
    issues: [{ path: field.split('.'), message }],
  });
}

/** `prefix` goes first, then `prefixes`, without repeats. */
function mergePrefixes(prefix: string | undefined, prefixes: string[] | undefined, current: string[]): string[] {
  if (prefix === undefined && prefixes === undefined) return current;
  const base = prefixes ?? current.filter((existing) => existing !== current[0]);
  return [...new Set(prefix === undefined ? base : [prefix, ...base])];
}

type TransportInput = Pick<Partial<CreateConnectionInput>, 'url' | 'tls' | 'cluster'>;

/**
 * URL, TLS and cluster settings on top of the current ones (none on create),
 * with the rules that span them: a seed list is a cluster, and `tls.enabled`
 * cannot contradict the URL scheme.
 */
export function resolveTransport(input: TransportInput, current?: StoreEndpoint): StoreEndpoint {
  const url = input.url ?? current!.url;
  if (input.url !== undefined) assertClientCanParse(input.url);
  const fresh = input.url !== undefined || !current;
  const seedList = isSeedList(url);
  const cluster = input.cluster ?? (fresh ? seedList : current.cluster);
  if (seedList && !cluster) throw invalid('cluster', 'a list of seed nodes is a cluster; cluster cannot be false');
  const schemeTls = usesTls(url);
  const tlsEnabled = input.tls?.enabled ?? (fresh ? schemeTls : current.tls.enabled || schemeTls);
  if (schemeTls && !tlsEnabled) throw invalid('tls.enabled', 'a rediss:// URL (or sslmode=require) always uses TLS');
  if (cluster && storeKindOf(url) === 'postgres')
    throw invalid('cluster', 'a postgres:// connection is never a cluster');
  return {
    url,
    cluster,
    tls: { enabled: tlsEnabled, allowSelfSigned: input.tls?.allowSelfSigned ?? current?.tls.allowSelfSigned ?? false },
  };
}

/**
 * Where the connection's queues live: Redis key prefixes, or for a
 * PostgreSQL connection its one schema (kept as the only prefix). A kind's
 * field on the other kind is a 400; a URL changing kind starts from its default.
 */
function resolvePrefixes(input: Partial<CreateConnectionInput>, url: string, current?: StoreConnection): string[] {
  const sameKind = current !== undefined && storeKindOf(current.url) === storeKindOf(url);
  if (storeKindOf(url) === 'redis') {
    if (input.schema !== undefined)
      throw invalid('schema', 'only PostgreSQL connections have a schema; a Redis connection has prefixes');
    return mergePrefixes(input.prefix, input.prefixes, sameKind ? current.prefixes : [defaultPrefix]);
  }
  if (input.prefix !== undefined || input.prefixes !== undefined) {
    throw invalid(
      input.prefix !== undefined ? 'prefix' : 'prefixes',
      'a PostgreSQL connection has a schema, not key prefixes',
    );
  }
  return [input.schema ?? (sameKind ? current.prefixes[0]! : defaultSchema)];
}

/** The settings an input yields on top of the current ones (none on create). */
export function resolveConnectionSettings(
  input: Partial<CreateConnectionInput>,
  current?: StoreConnection,
): ConnectionSettings {
  const transport = resolveTransport(input, current);
  return {
    ...transport,
    name: input.name ?? current!.name,
    environment: input.environment ?? current?.environment ?? 'development',
    prefixes: resolvePrefixes(input, transport.url, current),
    isDefault: input.isDefault ?? current?.isDefault ?? false,
    protection: input.protection ?? current?.protection ?? 'none',
  };
}
