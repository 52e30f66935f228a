import { createInvitationInputSchema, createdInvitationSchema } from '../../contracts/invitations.js';
import { createInvitation } from '../../server/auth/create-invitation.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createProcedure = accountProcedure
  .meta({
    permission: 'invitations.write',
    successStatus: 201,
    location: '/organizations/{organizationId}/invitations/{id}',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'Not an owner or admin of it, or a role above yours',
      CONFLICT: 'The email belongs to a member already: change their role instead',
    },
    bodyExample: { email: 'grace@example.com', role: 'operator' },
    openapi: {
      method: 'POST',
      path: '/organizations/{organizationId}/invitations',
      tags: ['invitations'],
      summary: 'Invite someone by email with a role no higher than yours; owners and admins. The token is shown once',
    },
  })
  .input(createInvitationInputSchema)
  .output(createdInvitationSchema)
  .mutation(({ ctx, input }) =>
    createInvitation({
      ...input,
      em: ctx.em,
      hash: ctx.services.auth.hash,
      actor: ctx.actor,
      appBaseUrl: ctx.services.auth.appBaseUrl,
    }),
  );
