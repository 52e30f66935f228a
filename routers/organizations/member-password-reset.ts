import { AppError } from '../../contracts/app-error.js';
import type { PasswordResetLink } from '../../contracts/auth.js';
import { roleOrder } from '../../contracts/permissions.js';
import type { Actor } from '../../server/auth/actor.js';
import { createPasswordResetLink } from '../../server/auth/password-reset.js';
import type { SecretHasher } from '../../server/auth/secret-hash.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** An owner or admin makes a reset link for a member whose role is no higher than theirs. */
export async function createMemberPasswordReset(input: {
  em: EntityManager;
  hash: SecretHasher;
  appBaseUrl: string;
  actor: Actor;
  organizationId: string;
  userId: string;
}): Promise<PasswordResetLink> {
  const membership = await input.em.findOne(Membership, { organizationId: input.organizationId, userId: input.userId });
  if (!membership) throw new AppError('NOT_FOUND', `User ${input.userId} is not a member of this organization`);
  if (roleOrder.indexOf(membership.role) > roleOrder.indexOf(input.actor.role)) {
    throw new AppError('FORBIDDEN', `You (${input.actor.role}) cannot reset the password of a member with a higher role (${membership.role})`);
  }
  return createPasswordResetLink({ em: input.em, hash: input.hash, appBaseUrl: input.appBaseUrl, userId: input.userId, createdByUserId: input.actor.userId });
}
