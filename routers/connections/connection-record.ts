import type { ConnectionRecord } from '../../contracts/connections.js';
import { storeKindOf } from '../../contracts/store-url.js';
import { redactUrlCredentials } from '../../server/secrets/redact-credentials.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';

/** The public shape of a connection: never the real URL. */
export function toConnectionRecord(connection: StoreConnection): ConnectionRecord {
  const kind = storeKindOf(connection.url);
  return {
    id: connection.id,
    name: connection.name,
    url: redactUrlCredentials(connection.url),
    kind,
    schema: kind === 'postgres' ? (connection.prefixes[0] ?? null) : null,
    environment: connection.environment,
    prefix: connection.prefixes[0] ?? 'bull',
    prefixes: connection.prefixes,
    isDefault: connection.isDefault,
    tls: connection.tls,
    cluster: connection.cluster,
    protection: connection.protection,
    source: connection.source,
    createdAt: connection.createdAt.toISOString(),
    updatedAt: connection.updatedAt.toISOString(),
  };
}
