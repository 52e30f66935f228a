import type { z } from 'zod';
import type { acceptedInvitationSchema, invitationPreviewSchema } from '../../contracts/invitations.js';
import { AppError } from '../../contracts/app-error.js';
import { recordAuditEvent } from '../../server/audit/record-audit-event.js';
import type { Identity } from '../../server/auth/identity.js';
import { acceptInvitation, findUsableInvitation } from '../../server/auth/invitation-token.js';
import { Organization } from '../../server/persistence/entities/organization.js';
import type { Context } from '../../server/trpc/context.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** What an invitation link shows before anyone signs in: where it leads and for whom. */
export async function previewInvitation(input: {
  ctx: Context;
  em: EntityManager;
  token: string;
}): Promise<z.infer<typeof invitationPreviewSchema>> {
  const invitation = await findUsableInvitation(input.em, input.ctx.services.auth.hash, input.token);
  const organization = await input.em.findOneOrFail(Organization, { id: invitation.organizationId });
  return {
    organization: { id: organization.id, name: organization.name },
    role: invitation.role,
    email: invitation.email,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** A signed-in user with the invited email joins its organization; audited in that organization. */
export async function acceptInvitationAsUser(input: {
  ctx: Context;
  em: EntityManager;
  identity: Identity | null;
  token: string;
}): Promise<z.infer<typeof acceptedInvitationSchema>> {
  const { ctx, em, identity } = input;
  if (identity?.kind !== 'user')
    throw new AppError('UNAUTHORIZED', 'Sign in (with the invited email) to accept an invitation');
  const invitation = await findUsableInvitation(em, ctx.services.auth.hash, input.token);
  const actor = {
    kind: 'user' as const,
    userId: identity.user.id,
    tokenId: null,
    organizationId: invitation.organizationId,
    role: invitation.role,
  };
  const audit = (outcome: 'success' | 'denied', errorCode: string | null) =>
    recordAuditEvent(ctx.services, {
      actor,
      action: 'invitations.accept',
      procedure: 'invitations.accept',
      connectionId: null,
      queueName: null,
      parameters: { invitationId: invitation.id },
      outcome,
      errorCode,
      counts: null,
    });
  try {
    await acceptInvitation(em, invitation, identity.user);
  } catch (error) {
    await audit('denied', error instanceof AppError ? error.code : null);
    throw error;
  }
  await em.flush();
  await audit('success', null);
  return { organizationId: invitation.organizationId, role: invitation.role };
}
