import { changeMemberRoleInputSchema, memberSchema } from '../../contracts/organizations.js';
import { changeMemberRole } from './members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const changeMemberRoleProcedure = accountProcedure
  .meta({
    permission: 'members.write',
    errors: { AUTHLESS_MODE: '', NOT_FOUND: 'Not a member', LAST_OWNER: '' },
    bodyExample: { role: 'admin' },
    openapi: {
      method: 'PATCH',
      path: '/organizations/{organizationId}/members/{userId}',
      tags: ['organizations'],
      summary: "Change a member's role; owners only. The last owner cannot be demoted",
    },
  })
  .input(changeMemberRoleInputSchema)
  .output(memberSchema)
  .mutation(({ ctx, input }) => changeMemberRole({ em: ctx.em, ...input }));
