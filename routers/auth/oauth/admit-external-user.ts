import { randomUUID } from 'node:crypto';
import { AppError } from '../../../contracts/app-error.js';
import { admitNewUser, type AdmissionRequest } from '../admit-new-user.js';
import { User } from '../../../server/persistence/entities/user.js';
import type { EntityManager } from '../../../server/persistence/orm.js';
import { OAuthFailure } from '../../../server/auth/oauth/oauth-provider.js';

/** What the sign-up policy needs besides the unit of work and the person. */
export type AdmissionDeps = Pick<AdmissionRequest, 'config' | 'hash' | 'instanceOrganizationId'>;

/**
 * The door for a person signing in with a provider for the first time: the
 * same sign-up policy as email sign-up (admitNewUser: first owner, open, or
 * refused under invite/closed: a provider has no invitation token), then the
 * user. Persisted with the caller's next flush. An empty password hash never
 * verifies: such a user signs in with the provider only.
 */
export async function admitExternalUser(
  em: EntityManager,
  deps: AdmissionDeps,
  input: { email: string; name: string },
): Promise<{ userId: string; organizationId: string }> {
  const user = { id: randomUUID(), email: input.email, name: input.name };
  let organizationId: string;
  try {
    ({ organizationId } = await admitNewUser({ em, ...deps, user }));
  } catch (error) {
    if (error instanceof AppError && (error.code === 'SIGNUP_CLOSED' || error.code === 'SETUP_TOKEN_REQUIRED'))
      throw new OAuthFailure('signup_refused', error.message);
    throw error;
  }
  const now = new Date();
  em.create(User, { ...user, passwordHash: '', createdAt: now, lastSignInAt: now });
  return { userId: user.id, organizationId };
}
