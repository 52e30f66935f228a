import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateInvitationInput, CreatedInvitation, InvitationView } from '../../contracts/invitations.js';
import { roleOrder } from '../../contracts/permissions.js';
import { AppError } from '../../contracts/app-error.js';
import type { Actor } from '../../server/auth/actor.js';
import { invitationTokenPrefix } from '../../server/auth/invitation-token.js';
import type { SecretHasher } from '../../server/auth/secret-hash.js';
import { normalizeEmail } from '../../server/auth/views.js';
import { Invitation, type InvitationRecord } from '../../server/persistence/entities/invitation.js';
import type { EntityManager } from '../../server/persistence/orm.js';

export const defaultInvitationHours = 24 * 7;
const hourMs = 60 * 60 * 1000;

function invitationView(invitation: InvitationRecord): InvitationView {
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

/** An invitation into the actor's organization, with a role no higher than theirs; its token is shown once. */
export async function createInvitation(
  input: CreateInvitationInput & { em: EntityManager; hash: SecretHasher; actor: Actor; appBaseUrl: string },
): Promise<CreatedInvitation> {
  const { actor } = input;
  if (!actor.userId) throw new AppError('FORBIDDEN', 'Invitations are created by a user');
  if (roleOrder.indexOf(input.role) > roleOrder.indexOf(actor.role)) {
    throw new AppError('FORBIDDEN', `An invitation cannot grant a higher role (${input.role}) than yours (${actor.role})`);
  }
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
  return { ...invitationView(invitation), token, url: `${input.appBaseUrl.replace(/\/$/, '')}/api/invitations/${token}` };
}

/** The organization's invitations, newest first, never their tokens. */
export async function listInvitations(input: { em: EntityManager; organizationId: string }): Promise<{ invitations: InvitationView[] }> {
  const rows = await input.em.find(Invitation, { organizationId: input.organizationId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  return { invitations: rows.map(invitationView) };
}

/** Revoking deletes the invitation: its link then answers 404. */
export async function revokeInvitation(input: { em: EntityManager; organizationId: string; invitationId: string }): Promise<{ success: true }> {
  const invitation = await input.em.findOne(Invitation, { id: input.invitationId, organizationId: input.organizationId });
  if (!invitation) throw new AppError('INVITATION_NOT_FOUND', `Invitation ${input.invitationId} was not found`);
  await input.em.remove(invitation).flush();
  return { success: true };
}
