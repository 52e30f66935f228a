import type { ConnectionRecord } from '../../contracts/connections.js';
import type { ConnectionCatalog } from '../../server/stores/connection-catalog.js';
import { findVisibleConnection } from '../../server/stores/open-connection.js';
import { toConnectionRecord } from './connection-record.js';

/** The connections an organization sees, saved or from the environment, default first. */
export async function listConnections(deps: {
  connections: ConnectionCatalog;
  organizationId: string;
}): Promise<{ connections: ConnectionRecord[] }> {
  const connections = await deps.connections.list(deps.organizationId);
  return { connections: connections.map(toConnectionRecord) };
}

export async function getConnection(deps: {
  connections: ConnectionCatalog;
  organizationId: string;
  id: string;
}): Promise<ConnectionRecord> {
  return toConnectionRecord(await findVisibleConnection(deps.connections, deps.organizationId, deps.id));
}
