import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateInvitationInput, CreatedInvitation, InvitationView } from '../../contracts/invitations.js';
import { roleOrder } from '../../contracts/permissions.js';
import { AppError } from '../../contracts/app-error.js';
import { Invitation, type InvitationRecord } from '../persistence/entities/invitation.js';
import { Membership } from '../persistence/entities/membership.js';
import { User } from '../persistence/entities/user.js';
import type { EntityManager } from '../persistence/orm.js';
import type { Actor } from './actor.js';
import { invitationTokenPrefix } from './invitation-token.js';
import type { SecretHasher } from './secret-hash.js';
import { normalizeEmail } from './views.js';

export const defaultInvitationHours = 24 * 7;
const hourMs = 60 * 60 * 1000;

export function invitationView(invitation: InvitationRecord): InvitationView {
  return {
    id: invitation.id,
    organizationId: invitation.organizationId,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt.toISOString(),
    createdAt: invitation.createdAt.toISOString(),
    invitedByUserId: invitation.invitedByUserId,
    acceptedAt: invitation.acceptedAt ? invitation.acceptedAt.toISOString() : null,
  };
}

/** 409 when the email already belongs to a member: their role is changed with PATCH …/members/{userId}. */
async function refuseCurrentMember(em: EntityManager, organizationId: string, email: string): Promise<void> {
  const user = await em.findOne(User, { email });
  if (user && (await em.count(Membership, { organizationId, userId: user.id }))) {
    throw new AppError('CONFLICT', `${email} is already a member of this organization; change their role instead`);
  }
}

/**
 * An invitation into the actor's organization, with a role no higher than
 * theirs; its token is shown once. The only way into an organization for
 * someone who has an account already: they join by accepting it, never by
 * another's hand (invitations.create, and organizations.addMember).
 */
export async function createInvitation(
  input: CreateInvitationInput & { em: EntityManager; hash: SecretHasher; actor: Actor; appBaseUrl: string },
): Promise<CreatedInvitation> {
  const { actor } = input;
  if (!actor.userId) throw new AppError('FORBIDDEN', 'Invitations are created by a user');
  if (roleOrder.indexOf(input.role) > roleOrder.indexOf(actor.role)) {
    throw new AppError(
      'FORBIDDEN',
      `An invitation cannot grant a higher role (${input.role}) than yours (${actor.role})`,
    );
  }
  await refuseCurrentMember(input.em, input.organizationId, normalizeEmail(input.email));
  const token = `${invitationTokenPrefix}${randomBytes(32).toString('base64url')}`;
  const now = new Date();
  const invitation = input.em.create(Invitation, {
    id: randomUUID(),
    organizationId: input.organizationId,
    email: normalizeEmail(input.email),
    role: input.role,
    tokenHash: input.hash(token),
    invitedByUserId: actor.userId,
    expiresAt: new Date(now.getTime() + (input.expiresInHours ?? defaultInvitationHours) * hourMs),
    acceptedAt: null,
    acceptedByUserId: null,
    createdAt: now,
  });
  await input.em.flush();
  return {
    ...invitationView(invitation),
    token,
    url: `${input.appBaseUrl.replace(/\/$/, '')}/api/invitations/${token}`,
  };
}
