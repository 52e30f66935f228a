import { randomUUID } from 'node:crypto';
import { AppError } from '../../contracts/app-error.js';
import { Invitation, type InvitationRecord } from '../persistence/entities/invitation.js';
import { Membership } from '../persistence/entities/membership.js';
import type { EntityManager } from '../persistence/orm.js';
import type { SecretHasher } from './secret-hash.js';
import { normalizeEmail } from './views.js';

export const invitationTokenPrefix = 'bpi_';

/**
 * The invitation a token stands for, if it can still be used: unknown or
 * revoked (revoking deletes it) → 404, expired or already used → 410.
 */
export async function findUsableInvitation(
  em: EntityManager,
  hash: SecretHasher,
  token: string,
): Promise<InvitationRecord> {
  const invitation = await em.findOne(Invitation, { tokenHash: hash(token) });
  if (!invitation)
    throw new AppError('INVITATION_NOT_FOUND', 'No such invitation: it was revoked, or the link is wrong');
  if (invitation.acceptedAt) throw new AppError('INVITATION_USED', 'This invitation was already used');
  if (invitation.expiresAt.getTime() <= Date.now())
    throw new AppError('INVITATION_EXPIRED', 'This invitation has expired; ask for a new one');
  return invitation;
}

/**
 * Joins `user` to the invitation's organization with its role and marks it
 * used, in the caller's unit of work (the caller flushes). The email must
 * match, case-insensitively. Already a member: the role is left as it is.
 */
export async function acceptInvitation(
  em: EntityManager,
  invitation: InvitationRecord,
  user: { id: string; email: string },
): Promise<void> {
  if (normalizeEmail(user.email) !== invitation.email) {
    throw new AppError('INVITATION_EMAIL_MISMATCH', 'This invitation was sent to another email address');
  }
  invitation.acceptedAt = new Date();
  invitation.acceptedByUserId = user.id;
  if (await em.count(Membership, { organizationId: invitation.organizationId, userId: user.id })) return;
  em.create(Membership, {
    id: randomUUID(),
    organizationId: invitation.organizationId,
    userId: user.id,
    role: invitation.role,
    createdAt: new Date(),
  });
}
