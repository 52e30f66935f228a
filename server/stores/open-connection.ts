import { assertConnectionVisible } from './ownership.js';
import { AppError } from '../../contracts/app-error.js';
import type { Actor } from '../auth/actor.js';
import type { ConnectionCatalog } from './connection-catalog.js';
import type { StoreConnection } from './store-connection.js';
import type { StoreHandle } from './store-handle.js';
import type { StoreRegistry } from './store-registry.js';

/**
 * The connection with this id, or else the organization's connection of this
 * name (an id wins; a name cannot look like an id), as the organization may
 * see it: 404 when none, 403 when another's.
 */
export async function findVisibleConnection(
  connections: ConnectionCatalog,
  organizationId: string,
  connectionId: unknown,
): Promise<StoreConnection> {
  if (typeof connectionId !== 'string' || connectionId.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'connectionId is required');
  }
  const connection =
    (await connections.find(connectionId)) ?? (await connections.findByName(organizationId, connectionId));
  return assertConnectionVisible(connection, (found) => found.organizationId, organizationId, connectionId);
}

/**
 * Resolves a `:connectionId` for an actor: 404 when no such connection,
 * 403 when it belongs to another organization, else its live store handle.
 */
export async function openConnection(
  deps: { connections: ConnectionCatalog; stores: StoreRegistry },
  actor: Actor,
  connectionId: unknown,
): Promise<StoreHandle> {
  return deps.stores.handle(await findVisibleConnection(deps.connections, actor.organizationId, connectionId));
}
