import { connectionProtections, type ConnectionProtection } from '../../contracts/protection.js';
import type { ConnectionEnvironment, StoreConnection } from './store-connection.js';

import { usesTls } from '../../contracts/store-url.js';

const urlVariable = /^SERVICE_(REDIS|POSTGRES)_URL_([A-Z0-9_]+)$/;
const attributeSuffixes = [
  '_ENVIRONMENT',
  '_PREFIX',
  '_SCHEMA',
  '_ALLOW_SELF_SIGNED_CERTS',
  '_CLUSTER',
  '_PROTECTION',
] as const;
const schemaName = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
const environments: ConnectionEnvironment[] = ['development', 'staging', 'production'];
const truthy = new Set(['true', '1', 'yes']);

export class EnvConnectionError extends Error {}

function isAttributeOfAnother(kind: string, name: string, env: Record<string, string | undefined>): boolean {
  return attributeSuffixes.some(
    (suffix) => name.endsWith(suffix) && env[`SERVICE_${kind}_URL_${name.slice(0, -suffix.length)}`] !== undefined,
  );
}

/** Redis: key prefixes (_PREFIX, default `bull`). PostgreSQL: the one BullMQ schema (_SCHEMA, default `bullmq`). */
function prefixesOf(kind: string, variable: string, read: (suffix: string) => string | undefined): string[] {
  if (kind === 'REDIS')
    return (read('_PREFIX') ?? 'bull')
      .split(',')
      .map((prefix) => prefix.trim())
      .filter(Boolean);
  const schema = read('_SCHEMA') ?? 'bullmq';
  if (!schemaName.test(schema))
    throw new EnvConnectionError(
      `Invalid ${variable}_SCHEMA: must be a simple PostgreSQL identifier (letters, digits, underscores)`,
    );
  return [schema];
}

/**
 * Connections declared as SERVICE_REDIS_URL_<NAME> (with optional
 * _ENVIRONMENT, _PREFIX, _ALLOW_SELF_SIGNED_CERTS, _CLUSTER, _PROTECTION) or
 * SERVICE_POSTGRES_URL_<NAME> (BullMQ's PostgreSQL backend: _ENVIRONMENT,
 * _SCHEMA, _ALLOW_SELF_SIGNED_CERTS, _PROTECTION), their id the lowercased
 * NAME so it is stable across restarts; one NAME names one connection.
 * SERVICE_REDIS_URL_DEFAULT names the default connection.
 */
export function parseEnvConnections(
  env: Record<string, string | undefined>,
  startedAt = new Date(),
): StoreConnection[] {
  const defaultName = env.SERVICE_REDIS_URL_DEFAULT?.trim().toUpperCase();
  const connections: StoreConnection[] = [];
  for (const [variable, value] of Object.entries(env)) {
    const [, kind = '', name] = urlVariable.exec(variable) ?? [];
    if (
      !name ||
      name === 'DEFAULT' ||
      value === undefined ||
      value.trim() === '' ||
      isAttributeOfAnother(kind, name, env)
    )
      continue;
    if (connections.some((known) => known.id === name.toLowerCase())) {
      throw new EnvConnectionError(
        `SERVICE_REDIS_URL_${name} and SERVICE_POSTGRES_URL_${name} both name connection "${name.toLowerCase()}": rename one`,
      );
    }
    const read = (suffix: string) => env[`${variable}${suffix}`]?.trim();
    const environment = (read('_ENVIRONMENT') ?? 'development').toLowerCase() as ConnectionEnvironment;
    if (!environments.includes(environment)) {
      throw new EnvConnectionError(`Invalid ${variable}_ENVIRONMENT: must be one of ${environments.join(', ')}`);
    }
    const protection = (read('_PROTECTION') ?? 'none').toLowerCase() as ConnectionProtection;
    if (!connectionProtections.includes(protection)) {
      throw new EnvConnectionError(
        `Invalid ${variable}_PROTECTION ("${read('_PROTECTION')}"): must be one of ${connectionProtections.join(', ')}`,
      );
    }
    const url = value.trim();
    connections.push({
      id: name.toLowerCase(),
      organizationId: null,
      name: name.toLowerCase(),
      url,
      environment,
      prefixes: prefixesOf(kind, variable, read),
      isDefault: name === defaultName,
      tls: { enabled: usesTls(url), allowSelfSigned: truthy.has(read('_ALLOW_SELF_SIGNED_CERTS') ?? '') },
      cluster: kind === 'REDIS' && (truthy.has(read('_CLUSTER') ?? '') || url.includes(',')),
      protection,
      source: 'env',
      createdAt: startedAt,
      updatedAt: startedAt,
    });
  }
  connections.sort((a, b) => a.id.localeCompare(b.id));
  if (connections.length > 0 && !connections.some((connection) => connection.isDefault))
    connections[0]!.isDefault = true;
  return connections;
}
