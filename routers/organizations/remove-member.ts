import { memberParams, removedMemberSchema } from '../../contracts/organizations.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { removeMember } from './members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const removeMemberProcedure = accountProcedure
  .meta({
    permission: 'members.write',
    errors: { AUTHLESS_MODE: '', NOT_FOUND: 'Not a member', LAST_OWNER: '' },
    openapi: {
      method: 'DELETE',
      path: '/organizations/{organizationId}/members/{userId}',
      tags: ['organizations'],
      summary: 'Remove a member; owners only. The last owner cannot be removed',
    },
  })
  .input(memberParams)
  .output(removedMemberSchema)
  .mutation(async ({ ctx, input }) => deletedAnswer(input.userId, await removeMember({ em: ctx.em, ...input })));
