import { memberListSchema, organizationParams } from '../../contracts/organizations.js';
import { listMembers } from './members.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const listMembersProcedure = accountProcedure
  .meta({
    permission: 'members.read',
    errors: { AUTHLESS_MODE: '' },
    openapi: {
      method: 'GET',
      path: '/organizations/{organizationId}/members',
      tags: ['organizations'],
      summary: 'Members of the organization and their roles',
    },
  })
  .input(organizationParams)
  .output(memberListSchema)
  .query(({ ctx, input }) => listMembers({ em: ctx.em, organizationId: input.organizationId }));
