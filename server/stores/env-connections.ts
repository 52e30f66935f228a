import { connectionProtections, type ConnectionProtection } from '../../contracts/protection.js';
import type { ConnectionEnvironment, StoreConnection } from './store-connection.js';

const urlVariable = /^SERVICE_REDIS_URL_([A-Z0-9_]+)$/;
const attributeSuffixes = ['_ENVIRONMENT', '_PREFIX', '_ALLOW_SELF_SIGNED_CERTS', '_CLUSTER', '_PROTECTION'] as const;
const environments: ConnectionEnvironment[] = ['development', 'staging', 'production'];
const truthy = new Set(['true', '1', 'yes']);

export class EnvConnectionError extends Error {}

function isAttributeOfAnother(name: string, env: Record<string, string | undefined>): boolean {
  return attributeSuffixes.some((suffix) => name.endsWith(suffix) && env[`SERVICE_REDIS_URL_${name.slice(0, -suffix.length)}`] !== undefined);
}

/**
 * Connections declared as SERVICE_REDIS_URL_<NAME> (with optional
 * _ENVIRONMENT, _PREFIX, _ALLOW_SELF_SIGNED_CERTS, _CLUSTER, _PROTECTION), their id the
 * lowercased NAME so it is stable across restarts. SERVICE_REDIS_URL_DEFAULT
 * names the default connection.
 */
export function parseEnvConnections(env: Record<string, string | undefined>, startedAt = new Date()): StoreConnection[] {
  const defaultName = env.SERVICE_REDIS_URL_DEFAULT?.trim().toUpperCase();
  const connections: StoreConnection[] = [];
  for (const [variable, value] of Object.entries(env)) {
    const name = urlVariable.exec(variable)?.[1];
    if (!name || name === 'DEFAULT' || value === undefined || value.trim() === '' || isAttributeOfAnother(name, env)) continue;
    const read = (suffix: string) => env[`${variable}${suffix}`]?.trim();
    const environment = (read('_ENVIRONMENT') ?? 'development').toLowerCase() as ConnectionEnvironment;
    if (!environments.includes(environment)) {
      throw new EnvConnectionError(`Invalid ${variable}_ENVIRONMENT: must be one of ${environments.join(', ')}`);
    }
    const protection = (read('_PROTECTION') ?? 'none').toLowerCase() as ConnectionProtection;
    if (!connectionProtections.includes(protection)) {
      throw new EnvConnectionError(`Invalid ${variable}_PROTECTION ("${read('_PROTECTION')}"): must be one of ${connectionProtections.join(', ')}`);
    }
    const url = value.trim();
    connections.push({
      id: name.toLowerCase(),
      organizationId: null,
      name: name.toLowerCase(),
      url,
      environment,
      prefixes: (read('_PREFIX') ?? 'bull').split(',').map((prefix) => prefix.trim()).filter(Boolean),
      isDefault: name === defaultName,
      tls: { enabled: url.startsWith('rediss://'), allowSelfSigned: truthy.has(read('_ALLOW_SELF_SIGNED_CERTS') ?? '') },
      cluster: truthy.has(read('_CLUSTER') ?? '') || url.includes(','),
      protection,
      source: 'env',
      createdAt: startedAt,
      updatedAt: startedAt,
    });
  }
  connections.sort((a, b) => a.id.localeCompare(b.id));
  if (connections.length > 0 && !connections.some((connection) => connection.isDefault)) connections[0]!.isDefault = true;
  return connections;
}
