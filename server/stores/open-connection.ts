import { AppError } from '../../domain/errors.js';
import type { Actor } from '../auth/actor.js';
import type { ConnectionCatalog } from './connection-catalog.js';
import type { StoreHandle } from './store-handle.js';
import type { StoreRegistry } from './store-registry.js';

/**
 * Resolves a `:connectionId` for an actor: 404 when no such connection,
 * 403 when it belongs to another organization, else its live store handle.
 */
export async function openConnection(
  deps: { connections: ConnectionCatalog; stores: StoreRegistry },
  actor: Actor,
  connectionId: unknown,
): Promise<StoreHandle> {
  if (typeof connectionId !== 'string' || connectionId.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'connectionId is required');
  }
  const connection = await deps.connections.find(connectionId);
  if (!connection) throw new AppError('NOT_FOUND', `Connection ${connectionId} was not found`, { connectionId });
  if (connection.organizationId !== null && connection.organizationId !== actor.organizationId) {
    throw new AppError('FORBIDDEN', `Connection ${connectionId} belongs to another organization`, { connectionId });
  }
  return deps.stores.handle(connection);
}
