import { passwordResetLinkSchema } from '../../contracts/auth.js';
import { memberParams } from '../../contracts/organizations.js';
import { createMemberPasswordReset } from './member-password-reset.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createMemberPasswordResetProcedure = accountProcedure
  .meta({
    permission: 'members.password-reset',
    successStatus: 201,
    differs: { create: 'No `Location`: the reset link is shown once, in this answer, and has no address of its own.' },
    strictLimit: 'credentials',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'You are not the instance owner (an owner of the instance’s own organization)',
      NOT_FOUND: 'Not a member',
    },
    openapi: {
      method: 'POST',
      path: '/organizations/{organizationId}/members/{userId}/password-reset',
      tags: ['organizations'],
      summary: 'A one-time password reset link for a member (1 hour, shown once); the instance owner only',
      description:
        'A password belongs to the account, not to an organization: only the instance owner (an owner of the instance’s own organization) may reset another user’s password, here or with `npm run admin -- reset-password`. Organization owners and admins manage memberships only.',
    },
  })
  .input(memberParams)
  .output(passwordResetLinkSchema)
  .mutation(({ ctx, input }) =>
    createMemberPasswordReset({
      em: ctx.em,
      hash: ctx.services.auth.hash,
      appBaseUrl: ctx.services.auth.appBaseUrl,
      localOrganizationId: ctx.services.persistence.localOrganizationId(),
      actor: ctx.actor,
      ...input,
    }),
  );
