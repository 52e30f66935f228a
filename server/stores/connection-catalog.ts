import type { StoreConnection } from './store-connection.js';

/** Where connection records come from: saved in the database, or declared in the environment. */
export interface ConnectionCatalog {
  readonly source: 'saved' | 'env';
  /** Connections visible to an organization, default first. */
  list(organizationId: string): Promise<StoreConnection[]>;
  /** The connection with this id, whichever organization owns it; null when there is none. */
  find(id: string): Promise<StoreConnection | null>;
  /** The organization's saved connection of this name (names are unique per organization); null when none. */
  findByName(organizationId: string, name: string): Promise<StoreConnection | null>;
  /**
   * An environment catalog's connections as declared, without asking the
   * database who owns them: readiness pings them even when it is down.
   */
  environmentConnections?(): StoreConnection[];
}

/**
 * Environment connections: fixed at startup, owned by the instance
 * organization (the one created at first start), so only its members see or
 * use them; another organization gets 403 as for another's saved connection.
 * `instanceOrganizationId` is read per call: the database may open after startup.
 */
export function envConnectionCatalog(
  connections: StoreConnection[],
  instanceOrganizationId: () => string,
): ConnectionCatalog {
  const owned = () => {
    const organizationId = instanceOrganizationId();
    return connections.map((connection) => ({ ...connection, organizationId }));
  };
  const ordered = (list: StoreConnection[]) =>
    [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
  return {
    source: 'env',
    list: async (organizationId) => (organizationId === instanceOrganizationId() ? ordered(owned()) : []),
    find: async (id) => owned().find((connection) => connection.id === id) ?? null,
    // Environment connections are reached by their ids (the variable's name, lowercased).
    findByName: async () => null,
    environmentConnections: () => ordered(connections),
  };
}
