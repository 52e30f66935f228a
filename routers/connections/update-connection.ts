import type { ConnectionRecord, UpdateConnectionInput } from '../../contracts/connections.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import type { UrlCipher } from '../../server/secrets/url-cipher.js';
import { toStoreConnection } from '../../server/stores/saved-connection-catalog.js';
import type { StoreRegistry } from '../../server/stores/store-registry.js';
import { assertTargetsAllowed, type TargetPolicy } from '../../server/stores/target-policy.js';
import { toConnectionRecord } from './connection-record.js';
import { resolveConnectionSettings } from './connection-settings.js';
import {
  assertNameFree,
  findOwnedRow,
  makeDefault,
  promoteOldest,
  translateUniqueViolation,
} from './saved-connection-rows.js';

/**
 * Changes any field of a saved connection and closes its live store client,
 * so the next request connects with the new settings. Unsetting the default
 * hands it to the oldest other connection; a lone connection stays default.
 */
export async function updateConnection(deps: {
  em: EntityManager;
  cipher: UrlCipher;
  policy: TargetPolicy;
  stores: StoreRegistry;
  organizationId: string;
  input: UpdateConnectionInput;
}): Promise<ConnectionRecord> {
  const { em, cipher, organizationId } = deps;
  const { id, ...changes } = deps.input;
  let name = changes.name ?? '';
  if (changes.url !== undefined) await assertTargetsAllowed(deps.policy, changes.url);
  try {
    const row = await em.transactional(async (tx) => {
      const found = await findOwnedRow(tx, organizationId, id);
      const settings = resolveConnectionSettings(changes, toStoreConnection(found, cipher));
      name = settings.name;
      if (settings.name !== found.name) await assertNameFree(tx, organizationId, settings.name, id);
      if (settings.isDefault && !found.isDefault) await makeDefault(tx, organizationId, id);
      const stillDefault =
        found.isDefault && (settings.isDefault || (await promoteOldest(tx, organizationId, id)) === null);
      tx.assign(found, {
        name: settings.name,
        urlSealed: changes.url === undefined ? found.urlSealed : cipher.encrypt(settings.url, id),
        environment: settings.environment,
        prefixes: settings.prefixes,
        isDefault: settings.isDefault || stillDefault,
        tlsEnabled: settings.tls.enabled,
        tlsAllowSelfSigned: settings.tls.allowSelfSigned,
        cluster: settings.cluster,
        protection: settings.protection,
        updatedAt: new Date(),
      });
      return found;
    });
    await deps.stores.release(id);
    return toConnectionRecord(toStoreConnection(row, cipher));
  } catch (error) {
    throw translateUniqueViolation(error, name);
  }
}
