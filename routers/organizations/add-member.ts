import { addMemberInputSchema, memberSchema } from '../../contracts/organizations.js';
import { addMember } from '../../domain/organizations/members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const addMemberRoute = accountProcedure
  .meta({
    permission: 'members.write',
    openapi: {
      method: 'POST',
      path: '/organizations/{organizationId}/members',
      tags: ['organizations'],
      summary: 'Add an existing user to the organization with a role; owners only',
      errorResponses: { 400: 'Invalid input or authless mode', 401: 'Not signed in', 403: 'Not an owner of it', 404: 'No user with that email', 409: 'Already a member' },
    },
  })
  .input(addMemberInputSchema)
  .output(memberSchema)
  .mutation(({ ctx, input }) => addMember({ em: ctx.em, ...input }));
