import { organizationParams } from '../../contracts/organizations.js';
import { invitationListSchema } from '../../contracts/invitations.js';
import { listInvitations } from './invitations.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = accountProcedure
  .meta({
    permission: 'invitations.read',
    errors: { AUTHLESS_MODE: '', FORBIDDEN: 'Not an owner or admin of it' },
    openapi: {
      method: 'GET',
      path: '/organizations/{organizationId}/invitations',
      tags: ['invitations'],
      summary: 'The organization’s invitations (never their tokens); owners and admins',
    },
  })
  .input(organizationParams)
  .output(invitationListSchema)
  .query(({ ctx, input }) => listInvitations({ em: ctx.em, organizationId: input.organizationId }));
