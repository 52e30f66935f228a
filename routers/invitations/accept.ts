import { acceptedInvitationSchema, invitationTokenParams } from '../../contracts/invitations.js';
import { acceptInvitationAsUser } from './accept-invitation.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const acceptProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    sessionOnly: true,
    errors: {
      AUTHLESS_MODE: '',
      UNAUTHORIZED: 'Not signed in with a session (an API token cannot accept)',
      INVITATION_EMAIL_MISMATCH: 'Signed in with another email than the invited one',
      INVITATION_NOT_FOUND: '',
      INVITATION_EXPIRED: '',
      INVITATION_USED: '',
    },
    openapi: {
      method: 'POST',
      path: '/invitations/{token}/accept',
      tags: ['invitations'],
      summary: 'Accept an invitation as the signed-in user with the invited email',
    },
  })
  .input(invitationTokenParams)
  .output(acceptedInvitationSchema)
  .mutation(async ({ ctx, input }) =>
    acceptInvitationAsUser({ ctx, em: ctx.em, identity: await ctx.identify(), token: input.token }),
  );
