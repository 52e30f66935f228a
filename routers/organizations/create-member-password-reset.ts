import { passwordResetLinkSchema } from '../../contracts/auth.js';
import { memberParams } from '../../contracts/organizations.js';
import { createMemberPasswordReset } from './member-password-reset.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createMemberPasswordResetProcedure = accountProcedure
  .meta({
    permission: 'members.password-reset',
    successStatus: 201,
    strictLimit: 'credentials',
    errors: { AUTHLESS_MODE: '', FORBIDDEN: 'Not an owner or admin of it, or the member’s role is above yours', NOT_FOUND: 'Not a member' },
    openapi: {
      method: 'POST',
      path: '/organizations/{organizationId}/members/{userId}/password-reset',
      tags: ['organizations'],
      summary: 'A one-time password reset link for a member (1 hour, shown once); owners and admins',
    },
  })
  .input(memberParams)
  .output(passwordResetLinkSchema)
  .mutation(({ ctx, input }) =>
    createMemberPasswordReset({ em: ctx.em, hash: ctx.services.auth.hash, appBaseUrl: ctx.services.auth.appBaseUrl, actor: ctx.actor, ...input }),
  );
