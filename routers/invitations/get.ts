import { invitationIdParams, invitationSchema } from '../../contracts/invitations.js';
import { getInvitation } from './invitations.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const getProcedure = accountProcedure
  .meta({
    permission: 'invitations.read',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'Not an owner or admin of it',
      INVITATION_NOT_FOUND: 'No such invitation in this organization',
    },
    openapi: {
      method: 'GET',
      path: '/organizations/{organizationId}/invitations/{invitationId}',
      tags: ['invitations'],
      summary: 'One invitation of the organization (never its token); owners and admins',
    },
  })
  .input(invitationIdParams)
  .output(invitationSchema)
  .query(({ ctx, input }) => getInvitation({ em: ctx.em, ...input }));
