import { memberListSchema, organizationParams } from '../../contracts/organizations.js';
import { listMembers } from '../../domain/organizations/members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const listMembersRoute = accountProcedure
  .meta({
    permission: 'members.read',
    openapi: {
      method: 'GET',
      path: '/organizations/{organizationId}/members',
      tags: ['organizations'],
      summary: 'Members of the organization and their roles',
      errorResponses: { 400: 'Authless mode', 401: 'Not signed in', 403: 'Not a member of it' },
    },
  })
  .input(organizationParams)
  .output(memberListSchema)
  .query(({ ctx, input }) => listMembers({ em: ctx.em, organizationId: input.organizationId }));
