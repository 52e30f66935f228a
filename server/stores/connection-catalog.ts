import type { StoreConnection } from './store-connection.js';

/** Where connection records come from: saved in the database, or declared in the environment. */
export interface ConnectionCatalog {
  readonly source: 'saved' | 'env';
  /** Connections visible to an organization, default first. */
  list(organizationId: string): Promise<StoreConnection[]>;
  /** The connection with this id, whichever organization owns it; null when there is none. */
  find(id: string): Promise<StoreConnection | null>;
}

/** Environment connections: fixed at startup, visible to every organization. */
export function envConnectionCatalog(connections: StoreConnection[]): ConnectionCatalog {
  const byId = new Map(connections.map((connection) => [connection.id, connection]));
  const ordered = [...connections].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
  return {
    source: 'env',
    list: async () => ordered,
    find: async (id) => byId.get(id) ?? null,
  };
}
