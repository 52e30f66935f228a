import { memberParams, removedMemberSchema } from '../../contracts/organizations.js';
import { removeMember } from '../../domain/organizations/members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const removeMemberRoute = accountProcedure
  .meta({
    permission: 'members.write',
    openapi: {
      method: 'DELETE',
      path: '/organizations/{organizationId}/members/{userId}',
      tags: ['organizations'],
      summary: 'Remove a member; owners only. The last owner cannot be removed',
      errorResponses: { 400: 'Authless mode', 401: 'Not signed in', 403: 'Not an owner of it', 404: 'Not a member', 409: 'Last owner (LAST_OWNER)' },
    },
  })
  .input(memberParams)
  .output(removedMemberSchema)
  .mutation(({ ctx, input }) => removeMember({ em: ctx.em, ...input }));
