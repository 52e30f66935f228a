import { randomBytes, randomUUID } from 'node:crypto';
import type { PasswordResetLink } from '../../contracts/auth.js';
import { PasswordReset } from '../persistence/entities/password-reset.js';
import type { EntityManager } from '../persistence/orm.js';
import type { SecretHasher } from './secret-hash.js';

export const resetLinkLifetimeMs = 60 * 60 * 1000;
export const resetTokenPrefix = 'bpr_';

/**
 * A one-time reset link for a user, valid one hour; only the token's keyed
 * hash is stored. Used by owners/admins over the API and by
 * `npm run admin -- reset-password` on the server.
 */
export async function createPasswordResetLink(input: {
  em: EntityManager;
  hash: SecretHasher;
  appBaseUrl: string;
  userId: string;
  createdByUserId: string | null;
}): Promise<PasswordResetLink> {
  const token = `${resetTokenPrefix}${randomBytes(32).toString('base64url')}`;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + resetLinkLifetimeMs);
  input.em.create(PasswordReset, {
    id: randomUUID(),
    userId: input.userId,
    tokenHash: input.hash(token),
    createdByUserId: input.createdByUserId,
    expiresAt,
    usedAt: null,
    createdAt: now,
  });
  await input.em.flush();
  // In the fragment: browsers never send it to a server, so it stays out of access logs and Referer headers.
  const url = `${input.appBaseUrl.replace(/\/$/, '')}/reset-password#token=${token}`;
  return { url, token, expiresAt: expiresAt.toISOString() };
}
