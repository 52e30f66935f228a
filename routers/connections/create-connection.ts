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
import { AppError } from '../../contracts/app-error.js';
import { storeKindOf } from '../../contracts/store-url.js';
import { asStoreError } from '../../server/stores/store-errors.js';
import { migrateSchema } from './migrate-schema.js';

/** `migrate: true` (PostgreSQL only): BullMQ's migrations on the schema before the connection is saved. */
async function migrateIfAsked(
  settings: ReturnType<typeof resolveConnectionSettings>,
  migrate: boolean | undefined,
  policy: TargetPolicy,
): Promise<void> {
  if (!migrate) return;
  if (storeKindOf(settings.url) !== 'postgres')
    throw new AppError(
      'VALIDATION_FAILED',
      'Invalid input: migrate: only PostgreSQL connections have a schema to migrate',
      { field: 'migrate' },
    );
  await migrateSchema(settings, settings.prefixes[0]!, policy).catch((error: unknown) => {
    throw asStoreError(
      { ...settings, id: '', organizationId: null, source: 'saved', createdAt: new Date(), updatedAt: new Date() },
      error,
    );
  });
}

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
  await migrateIfAsked(settings, deps.input.migrate, deps.policy);
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
