import { deletedAnswer, deletedSchema } from '../../contracts/deleted.js';
import { invitationIdParams } from '../../contracts/invitations.js';
import { revokeInvitation } from './invitations.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const revokeProcedure = accountProcedure
  .meta({
    permission: 'invitations.write',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'Not an owner or admin of it',
      INVITATION_NOT_FOUND: 'No such invitation in this organization',
    },
    openapi: {
      method: 'DELETE',
      path: '/organizations/{organizationId}/invitations/{invitationId}',
      tags: ['invitations'],
      summary: 'Revoke an invitation: its link answers 404 afterwards',
    },
  })
  .input(invitationIdParams)
  .output(deletedSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(input.invitationId, await revokeInvitation({ em: ctx.em, ...input })),
  );
