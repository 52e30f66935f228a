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
  return { id: row.id, type: row.type as 'webhook' | 'slack', name: row.name, url: shown, createdAt: row.createdAt.toISOString() };
}

export async function findDestination(em: EntityManager, organizationId: string, id: string): Promise<AlertDestinationRow> {
  const row = await em.findOne(AlertDestination, { id, organizationId });
  if (!row) throw new AppError('NOT_FOUND', `Alert destination ${id} was not found`, { destinationId: id });
  return row;
}

/** Saves a destination with its URL and a new signing secret sealed; the secret is answered once. */
export async function createDestination(deps: { em: EntityManager; cipher: UrlCipher; policy: TargetPolicy; organizationId: string }, input: { type: 'webhook' | 'slack'; name: string; url: string }) {
  await assertWebhookAllowed(deps.policy, input.url);
  const id = randomUUID();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const row = deps.em.create(AlertDestination, {
    id, organizationId: deps.organizationId, type: input.type, name: input.name,
    urlSealed: deps.cipher.encrypt(input.url, id), secretSealed: deps.cipher.encrypt(secret, `${id}:secret`), createdAt: new Date(),
  });
  await deps.em.flush();
  return { ...toDestinationView(row, deps.cipher), secret };
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
