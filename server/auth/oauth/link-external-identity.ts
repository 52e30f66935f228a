import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ExternalIdentity } from '../../persistence/entities/external-identity.js';
import { User } from '../../persistence/entities/user.js';
import type { EntityManager } from '../../persistence/orm.js';
import { normalizeEmail } from '../views.js';
import { admitExternalUser, type AdmissionDeps } from './admit-external-user.js';
import { OAuthFailure, type ExternalProfile } from './oauth-provider.js';

export interface ExternalSignIn {
  userId: string;
  /** The new user's personal organization; null for an existing user (their usual one applies). */
  organizationId: string | null;
  outcome: 'returning' | 'linked' | 'created';
}

/**
 * Who a provider account signs in as: the user it is linked to; else, with
 * a provider-verified email, the user with that email (linked now) or a new
 * user. An unverified email never links and never creates: anyone can claim
 * an address at some providers.
 */
export async function signInExternalIdentity(em: EntityManager, provider: string, profile: ExternalProfile, admission: AdmissionDeps): Promise<ExternalSignIn> {
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
  if (!profile.emailVerified) throw new OAuthFailure('email_not_verified', `the ${provider} account's email is not verified`);
  const email = normalizeEmail(profile.email);
  const existing = await em.findOne(User, { email });
  const admitted = existing ? null : await admitExternalUser(em, admission, { email, name: profile.name?.trim() || email.split('@')[0]! });
  const userId = existing?.id ?? admitted!.userId;
  if (existing) existing.lastSignInAt = now;
  em.create(ExternalIdentity, { id: randomUUID(), userId, provider, subject: profile.subject, email: profile.email, createdAt: now, lastSignInAt: now });
  try {
    await em.flush();
  } catch (error) {
    // The same account finishing two sign-ins at once: the unique index decides, the loser retries.
    if (error instanceof UniqueConstraintViolationException) throw new OAuthFailure('sign_in_failed', 'a concurrent sign-in created this account; try again');
    throw error;
  }
  return { userId, organizationId: admitted?.organizationId ?? null, outcome: existing ? 'linked' : 'created' };
}
