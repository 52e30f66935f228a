import { changeMemberRoleInputSchema, memberSchema } from '../../contracts/organizations.js';
import { changeMemberRole } from '../../domain/organizations/members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const changeMemberRoleRoute = accountProcedure
  .meta({
    permission: 'members.write',
    openapi: {
      method: 'PATCH',
      path: '/organizations/{organizationId}/members/{userId}',
      tags: ['organizations'],
      summary: "Change a member's role; owners only. The last owner cannot be demoted",
      errorResponses: { 400: 'Invalid input or authless mode', 401: 'Not signed in', 403: 'Not an owner of it', 404: 'Not a member', 409: 'Last owner (LAST_OWNER)' },
    },
  })
  .input(changeMemberRoleInputSchema)
  .output(memberSchema)
  .mutation(({ ctx, input }) => changeMemberRole({ em: ctx.em, ...input }));
