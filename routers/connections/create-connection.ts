import { randomUUID } from 'node:crypto';
import type { ConnectionRecord, CreateConnectionInput } from '../../contracts/connections.js';
import { Connection } from '../../server/persistence/entities/connection.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import type { UrlCipher } from '../../server/secrets/url-cipher.js';
import { toStoreConnection } from '../../server/stores/saved-connection-catalog.js';
import { assertTargetsAllowed, type TargetPolicy } from '../../server/stores/target-policy.js';
import { toConnectionRecord } from './connection-record.js';
import { resolveConnectionSettings } from './connection-settings.js';
import { assertNameFree, makeDefault, translateUniqueViolation } from './saved-connection-rows.js';

/** Saves a connection with its URL encrypted; the organization's first connection becomes its default. */
export async function createConnection(deps: {
  em: EntityManager;
  cipher: UrlCipher;
  policy: TargetPolicy;
  organizationId: string;
  input: CreateConnectionInput;
}): Promise<ConnectionRecord> {
  const { em, cipher, organizationId } = deps;
  const settings = resolveConnectionSettings(deps.input);
  await assertTargetsAllowed(deps.policy, settings.url);
  const id = randomUUID();
  const urlSealed = cipher.encrypt(settings.url, id);
  try {
    const row = await em.transactional(async (tx) => {
      await assertNameFree(tx, organizationId, settings.name);
      const first = (await tx.count(Connection, { organization: organizationId })) === 0;
      const now = new Date();
      const created = tx.create(Connection, {
        id,
        organization: organizationId,
        name: settings.name,
        urlSealed,
        environment: settings.environment,
        prefixes: settings.prefixes,
        isDefault: false,
        tlsEnabled: settings.tls.enabled,
        tlsAllowSelfSigned: settings.tls.allowSelfSigned,
        cluster: settings.cluster,
        protection: settings.protection,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      if (first || settings.isDefault) {
        await makeDefault(tx, organizationId, id);
        created.isDefault = true;
      }
      return created;
    });
    return toConnectionRecord(toStoreConnection(row, cipher));
  } catch (error) {
    throw translateUniqueViolation(error, settings.name);
  }
}
