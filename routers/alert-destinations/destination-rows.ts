import { randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '../../contracts/app-error.js';
import { AlertDestination, AlertRule, type AlertDestinationRow } from '../../server/persistence/entities/alerts.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { redactUrlCredentials } from '../../server/secrets/redact-credentials.js';
import type { UrlCipher } from '../../server/secrets/url-cipher.js';
import { assertWebhookAllowed } from '../../server/alerts/send-delivery.js';
import type { TargetPolicy } from '../../server/stores/target-policy.js';

/** The URL redacted (scheme, host and port): a webhook's path and query are often its secret (Slack's are). */
export function toDestinationView(row: AlertDestinationRow, cipher: UrlCipher) {
  let shown = '(sealed)';
  try {
    shown = redactUrlCredentials(cipher.decrypt(row.urlSealed, row.id));
  } catch {
    // A key that cannot open it: the listing still works.
  }
  return {
    id: row.id,
    type: row.type as 'webhook' | 'slack',
    name: row.name,
    url: shown,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findDestination(
  em: EntityManager,
  organizationId: string,
  id: string,
): Promise<AlertDestinationRow> {
  const row = await em.findOne(AlertDestination, { id, organizationId });
  if (!row) throw new AppError('NOT_FOUND', `Alert destination ${id} was not found`, { destinationId: id });
  return row;
}

type DestinationDeps = { em: EntityManager; cipher: UrlCipher; policy: TargetPolicy; organizationId: string };

/**
 * Saves a destination with its URL and signing secret sealed; the secret is answered once. A new one
 * is made unless given (a definitions import brings the one its receivers already hold).
 */
export async function createDestination(
  deps: DestinationDeps,
  input: { type: 'webhook' | 'slack'; name: string; url: string; secret?: string | undefined },
) {
  await assertWebhookAllowed(deps.policy, input.url);
  const id = randomUUID();
  const secret = input.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
  const row = deps.em.create(AlertDestination, {
    id,
    organizationId: deps.organizationId,
    type: input.type,
    name: input.name,
    urlSealed: deps.cipher.encrypt(input.url, id),
    secretSealed: deps.cipher.encrypt(secret, `${id}:secret`),
    createdAt: new Date(),
  });
  await deps.em.flush();
  return { ...toDestinationView(row, deps.cipher), secret };
}

/** Changes a destination's type, URL (checked like a new one) or signing secret (a definitions import). */
export async function updateDestination(
  deps: DestinationDeps,
  id: string,
  changes: { type?: 'webhook' | 'slack' | undefined; url?: string | undefined; secret?: string | undefined },
) {
  const row = await findDestination(deps.em, deps.organizationId, id);
  if (changes.url !== undefined) await assertWebhookAllowed(deps.policy, changes.url);
  if (changes.type !== undefined) row.type = changes.type;
  if (changes.url !== undefined) row.urlSealed = deps.cipher.encrypt(changes.url, id);
  if (changes.secret !== undefined) row.secretSealed = deps.cipher.encrypt(changes.secret, `${id}:secret`);
  await deps.em.flush();
  return toDestinationView(row, deps.cipher);
}

/** Removes a destination and takes it out of the organization's rules. */
export async function deleteDestination(em: EntityManager, organizationId: string, id: string): Promise<void> {
  await findDestination(em, organizationId, id);
  await em.transactional(async (tx) => {
    const removed = await tx.nativeDelete(AlertDestination, { id, organizationId });
    if (removed === 0) throw new AppError('NOT_FOUND', `Alert destination ${id} was not found`, { destinationId: id });
    for (const rule of await tx.find(AlertRule, { organizationId })) {
      if (rule.destinationIds.includes(id)) rule.destinationIds = rule.destinationIds.filter((other) => other !== id);
    }
  });
}
