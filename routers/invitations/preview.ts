import { invitationPreviewSchema, invitationTokenParams } from '../../contracts/invitations.js';
import { previewInvitation } from './accept-invitation.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

/** Public: whoever holds the link may see where it leads. Rate limited like sign-in (tokens are not guessable, but still). */
export const previewProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    errors: { AUTHLESS_MODE: '', INVITATION_NOT_FOUND: '', INVITATION_EXPIRED: '', INVITATION_USED: '' },
    openapi: {
      method: 'GET',
      path: '/invitations/{token}',
      tags: ['invitations'],
      summary: 'Preview an invitation: organization, role, email, expiry',
      description:
        'To use it: sign up with `invitationToken`, or sign in with the invited email and POST /api/invitations/{token}/accept.',
    },
  })
  .input(invitationTokenParams)
  .output(invitationPreviewSchema)
  .query(({ ctx, input }) => previewInvitation({ ctx, em: ctx.em, token: input.token }));
