import { Connection, isSavedConnectionId, type ConnectionRow } from '../persistence/entities/connection.js';
import type { Persistence } from '../persistence/persistence.js';
import type { UrlCipher } from '../secrets/url-cipher.js';
import type { ConnectionCatalog } from './connection-catalog.js';
import type { ConnectionProtection } from '../../contracts/protection.js';
import type { ConnectionEnvironment, StoreConnection } from './store-connection.js';

/** A saved row as the server uses it: the URL decrypted. */
export function toStoreConnection(row: ConnectionRow, cipher: UrlCipher): StoreConnection {
  return {
    id: row.id,
    organizationId: row.organization.id,
    name: row.name,
    url: cipher.decrypt(row.urlSealed, row.id),
    environment: row.environment as ConnectionEnvironment,
    prefixes: row.prefixes,
    isDefault: row.isDefault,
    tls: { enabled: row.tlsEnabled, allowSelfSigned: row.tlsAllowSelfSigned },
    cluster: row.cluster,
    protection: row.protection as ConnectionProtection,
    source: 'saved',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Connections saved in the database, each owned by one organization. */
export function savedConnectionCatalog(persistence: Persistence, cipher: UrlCipher): ConnectionCatalog {
  return {
    source: 'saved',
    async list(organizationId) {
      const rows = await persistence
        .fork()
        .find(Connection, { organization: organizationId }, { orderBy: { isDefault: 'desc', name: 'asc' } });
      return rows.map((row) => toStoreConnection(row, cipher));
    },
    async find(id) {
      if (!isSavedConnectionId(id)) return null;
      const row = await persistence.fork().findOne(Connection, { id });
      return row ? toStoreConnection(row, cipher) : null;
    },
    async findByName(organizationId, name) {
      if (name.includes('\u0000') || name.length > 100) return null;
      const row = await persistence.fork().findOne(Connection, { organization: organizationId, name });
      return row ? toStoreConnection(row, cipher) : null;
    },
  };
}
