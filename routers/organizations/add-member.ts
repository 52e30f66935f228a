import { addMemberInputSchema, memberSchema } from '../../contracts/organizations.js';
import { addMember } from './members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const addMemberProcedure = accountProcedure
  .meta({
    permission: 'members.write',
    errors: { AUTHLESS_MODE: '', NOT_FOUND: 'No user with that email', CONFLICT: 'Already a member' },
    bodyExample: { email: 'grace@example.com', role: 'operator' },
    openapi: {
      method: 'POST',
      path: '/organizations/{organizationId}/members',
      tags: ['organizations'],
      summary: 'Add an existing user to the organization with a role; owners only',
    },
  })
  .input(addMemberInputSchema)
  .output(memberSchema)
  .mutation(({ ctx, input }) => addMember({ em: ctx.em, ...input }));
