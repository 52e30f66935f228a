import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ExternalIdentity } from '../../../server/persistence/entities/external-identity.js';
import { User } from '../../../server/persistence/entities/user.js';
import type { EntityManager } from '../../../server/persistence/orm.js';
import { normalizeEmail } from '../../../server/auth/views.js';
import { admitExternalUser, type AdmissionDeps } from './admit-external-user.js';
import { OAuthFailure, type ExternalProfile } from '../../../server/auth/oauth/oauth-provider.js';

export interface ExternalSignIn {
  userId: string;
  /** The new user's personal organization; null for an existing user (their usual one applies). */
  organizationId: string | null;
  outcome: 'returning' | 'created';
}

/**
 * Who a provider account signs in as: the user it is linked to; else, with
 * a provider-verified email, a new user. An email that already has an
 * account is refused (`account_exists`), never linked: whoever made that
 * account (perhaps someone else, with a password of their choosing, before
 * its owner ever came) keeps it; its owner signs in as usual and links
 * (link-identity.ts). An unverified email never creates: anyone can claim an
 * address at some providers.
 */
export async function signInExternalIdentity(
  em: EntityManager,
  provider: string,
  profile: ExternalProfile,
  admission: AdmissionDeps,
): Promise<ExternalSignIn> {
  const now = new Date();
  const known = await em.findOne(ExternalIdentity, { provider, subject: profile.subject });
  if (known) {
    known.lastSignInAt = now;
    known.email = profile.email;
    await em.nativeUpdate(User, { id: known.userId }, { lastSignInAt: now });
    await em.flush();
    return { userId: known.userId, organizationId: null, outcome: 'returning' };
  }
  if (!profile.email) throw new OAuthFailure('email_missing', `the ${provider} account has no email address`);
  if (!profile.emailVerified)
    throw new OAuthFailure('email_not_verified', `the ${provider} account's email is not verified`);
  const email = normalizeEmail(profile.email);
  if (await em.count(User, { email })) {
    throw new OAuthFailure(
      'account_exists',
      `an account with the ${provider} account's email exists: sign in to it, then link ${provider}`,
    );
  }
  const admitted = await admitExternalUser(em, admission, {
    email,
    name: profile.name?.trim() || email.split('@')[0]!,
  });
  em.create(ExternalIdentity, {
    id: randomUUID(),
    userId: admitted.userId,
    provider,
    subject: profile.subject,
    email: profile.email,
    createdAt: now,
    lastSignInAt: now,
  });
  try {
    await em.flush();
  } catch (error) {
    // Two first sign-ins at once (the same provider account, or the email signing up meanwhile): the unique indexes decide.
    if (error instanceof UniqueConstraintViolationException)
      throw new OAuthFailure('sign_in_failed', 'a concurrent sign-in or sign-up created this account; try again');
    throw error;
  }
  return { ...admitted, outcome: 'created' };
}
