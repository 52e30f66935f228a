import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ExternalIdentity } from '../../../server/persistence/entities/external-identity.js';
import type { EntityManager } from '../../../server/persistence/orm.js';
import { OAuthFailure, type ExternalProfile } from '../../../server/auth/oauth/oauth-provider.js';

const inUse = (provider: string) =>
  new OAuthFailure('identity_in_use', `this ${provider} account already signs in as another user`);

/**
 * Links a provider account to the signed-in user who asked for it (the link
 * flow, never a sign-in). The email plays no part: signing in at the provider
 * proved the user controls that account. It must not sign in as someone else
 * already, and a user keeps one account per provider, so unlinking by
 * provider names one. `unchanged` when it was already theirs.
 */
export async function linkIdentity(
  em: EntityManager,
  provider: string,
  profile: ExternalProfile,
  userId: string,
): Promise<'linked' | 'unchanged'> {
  const known = await em.findOne(ExternalIdentity, { provider, subject: profile.subject });
  if (known && known.userId !== userId) throw inUse(provider);
  if (known) return 'unchanged';
  if (await em.count(ExternalIdentity, { userId, provider })) {
    throw new OAuthFailure('already_linked', `another ${provider} account is linked to you already: unlink it first`);
  }
  em.create(ExternalIdentity, {
    id: randomUUID(),
    userId,
    provider,
    subject: profile.subject,
    email: profile.email,
    createdAt: new Date(),
    lastSignInAt: null,
  });
  try {
    await em.flush();
  } catch (error) {
    // Linked (or signed up) by someone else meanwhile: the unique index on (provider, subject) decides.
    if (error instanceof UniqueConstraintViolationException) throw inUse(provider);
    throw error;
  }
  return 'linked';
}
