import { AppError } from '../../contracts/app-error.js';
import type { InvitationView } from '../../contracts/invitations.js';
import { invitationView } from '../../server/auth/create-invitation.js';
import { Invitation } from '../../server/persistence/entities/invitation.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** The organization's invitations, newest first, never their tokens. */
export async function listInvitations(input: {
  em: EntityManager;
  organizationId: string;
}): Promise<{ invitations: InvitationView[] }> {
  const rows = await input.em.find(
    Invitation,
    { organizationId: input.organizationId },
    { orderBy: { createdAt: 'desc', id: 'asc' } },
  );
  return { invitations: rows.map(invitationView) };
}

/** One invitation of the organization, never its token. */
export async function getInvitation(input: {
  em: EntityManager;
  organizationId: string;
  invitationId: string;
}): Promise<InvitationView> {
  const invitation = await input.em.findOne(Invitation, {
    id: input.invitationId,
    organizationId: input.organizationId,
  });
  if (!invitation) throw new AppError('INVITATION_NOT_FOUND', `Invitation ${input.invitationId} was not found`);
  return invitationView(invitation);
}

/** Revoking deletes the invitation: its link then answers 404. */
export async function revokeInvitation(input: {
  em: EntityManager;
  organizationId: string;
  invitationId: string;
}): Promise<{ success: true }> {
  const invitation = await input.em.findOne(Invitation, {
    id: input.invitationId,
    organizationId: input.organizationId,
  });
  if (!invitation) throw new AppError('INVITATION_NOT_FOUND', `Invitation ${input.invitationId} was not found`);
  await input.em.remove(invitation).flush();
  return { success: true };
}
