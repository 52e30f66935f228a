import type { EntityManager } from '../../server/persistence/orm.js';
import type { StoreRegistry } from '../../server/stores/store-registry.js';
import { Connection } from '../../server/persistence/entities/connection.js';
import { findOwnedRow, promoteOldest } from './saved-connection-rows.js';
import { onlyWinner } from '../../server/persistence/only-winner.js';
import { AppError } from '../../contracts/app-error.js';

/** Deletes a saved connection and closes its store client; deleting the default promotes the oldest other one. */
export async function deleteConnection(deps: {
  em: EntityManager;
  stores: StoreRegistry;
  organizationId: string;
  id: string;
}): Promise<{ id: string; deleted: true; defaultId: string | null }> {
  const { em, organizationId, id } = deps;
  const defaultId = await em.transactional(async (tx) => {
    const row = await findOwnedRow(tx, organizationId, id);
    const promoted = row.isDefault ? await promoteOldest(tx, organizationId, id) : null;
    // Racing deletes all found the row; only the one that deleted it answers success.
    await onlyWinner(
      tx.nativeDelete(Connection, { id, organization: organizationId }),
      () => new AppError('NOT_FOUND', `Connection ${id} was not found`),
    );
    if (row.isDefault) return promoted;
    const current = await tx.findOne(Connection, { organization: organizationId, isDefault: true });
    return current?.id ?? null;
  });
  await deps.stores.release(id);
  return { id, deleted: true, defaultId };
}
