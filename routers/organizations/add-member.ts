import { createdInvitationSchema, createInvitationInputSchema } from '../../contracts/invitations.js';
import { createInvitation } from '../../server/auth/create-invitation.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

/**
 * Asks someone to join: an invitation, never a membership made by another's
 * hand. Owning an organization gives no power over a user who already has an
 * account elsewhere; they join when they accept (POST /invitations/{token}/accept).
 */
export const addMemberProcedure = accountProcedure
  .meta({
    permission: 'members.write',
    successStatus: 201,
    // What it creates is an invitation: the member exists once it is accepted.
    location: '/organizations/{organizationId}/invitations/{id}',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'A role above yours',
      CONFLICT: 'The email belongs to a member already: change their role instead',
    },
    bodyExample: { email: 'grace@example.com', role: 'operator' },
    openapi: {
      method: 'POST',
      path: '/organizations/{organizationId}/members',
      tags: ['organizations'],
      summary: 'Invite someone to become a member with a role; owners only. They join when they accept the invitation',
      description:
        'Creates an invitation (as `POST …/invitations` does), whether or not the email has an account: nobody is added without accepting it. The token is shown once; send its link to the person.',
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
