import { AlertDestination } from '../persistence/entities/alerts.js';
import { Connection } from '../persistence/entities/connection.js';
import type { EntityManager } from '../persistence/orm.js';
import type { Persistence } from '../persistence/persistence.js';
import type { Logger } from '../logger.js';
import type { UrlCipher } from './url-cipher.js';

/** One sealed value of a row: read it, write it, and the associated data it was sealed with. */
interface SealedField {
  value: string;
  associatedData: string;
  set(sealed: string): void;
}

/** Every value sealed with SERVICE_ENCRYPTION_KEY: saved connection URLs, alert destination URLs and secrets. */
async function sealedFields(em: EntityManager): Promise<SealedField[]> {
  const connections = await em.find(Connection, {});
  const destinations = await em.find(AlertDestination, {});
  return [
    ...connections.map((row) => ({
      value: row.urlSealed,
      associatedData: row.id,
      set: (sealed: string) => (row.urlSealed = sealed),
    })),
    ...destinations.flatMap((row) => [
      { value: row.urlSealed, associatedData: row.id, set: (sealed: string) => (row.urlSealed = sealed) },
      {
        value: row.secretSealed,
        associatedData: `${row.id}:secret`,
        set: (sealed: string) => (row.secretSealed = sealed),
      },
    ]),
  ];
}

/**
 * Key rotation: values sealed with SERVICE_ENCRYPTION_KEY_PREVIOUS are opened
 * with it and sealed again with SERVICE_ENCRYPTION_KEY, at startup, so the
 * previous key can be dropped after one start. Values already sealed with the
 * current key are left alone; values neither key opens are counted and logged.
 */
export async function resealWithCurrentKey(deps: {
  persistence: Persistence;
  logger: Logger;
  current: UrlCipher;
  previous: UrlCipher;
}): Promise<{ resealed: number; unreadable: number }> {
  const em = deps.persistence.fork();
  let resealed = 0;
  let unreadable = 0;
  for (const field of await sealedFields(em)) {
    if (opens(deps.current, field)) continue;
    if (!opens(deps.previous, field)) {
      unreadable++;
      continue;
    }
    field.set(deps.current.encrypt(deps.previous.decrypt(field.value, field.associatedData), field.associatedData));
    resealed++;
  }
  await em.flush();
  deps.logger.info(
    { resealed, unreadable },
    `encryption key rotation: re-sealed ${resealed} secret(s) with SERVICE_ENCRYPTION_KEY`,
  );
  if (unreadable > 0)
    deps.logger.error(
      { unreadable },
      `${unreadable} sealed secret(s) open with neither SERVICE_ENCRYPTION_KEY nor SERVICE_ENCRYPTION_KEY_PREVIOUS`,
    );
  return { resealed, unreadable };
}

function opens(cipher: UrlCipher, field: SealedField): boolean {
  try {
    cipher.decrypt(field.value, field.associatedData);
    return true;
  } catch {
    return false;
  }
}
