import { AppError } from '../../contracts/app-error.js';
import type { PasswordResetLink } from '../../contracts/auth.js';
import type { Actor } from '../../server/auth/actor.js';
import { requireActsOnAccount } from './instance-owner.js';
import { createPasswordResetLink } from '../../server/auth/password-reset.js';
import type { SecretHasher } from '../../server/auth/secret-hash.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/**
 * A reset link for a member, made by the instance owner only: a password is
 * the account's, not the organization's, and owning an organization (which
 * anyone may create) gives no power over the accounts of its members.
 */
export async function createMemberPasswordReset(input: {
  em: EntityManager;
  hash: SecretHasher;
  appBaseUrl: string;
  localOrganizationId: string;
  actor: Actor;
  organizationId: string;
  userId: string;
}): Promise<PasswordResetLink> {
  await requireActsOnAccount(input.em, input.localOrganizationId, input.actor, input.userId);
  const membership = await input.em.findOne(Membership, { organizationId: input.organizationId, userId: input.userId });
  if (!membership) throw new AppError('NOT_FOUND', `User ${input.userId} is not a member of this organization`);
  return createPasswordResetLink({
    em: input.em,
    hash: input.hash,
    appBaseUrl: input.appBaseUrl,
    userId: input.userId,
    createdByUserId: input.actor.userId,
  });
}
