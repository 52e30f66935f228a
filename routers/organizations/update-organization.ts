import { organizationSchema, updateOrganizationInputSchema } from '../../contracts/organizations.js';
import { renameOrganization } from '../../domain/organizations/update-organization.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const updateOrganizationRoute = accountProcedure
  .meta({
    permission: 'organizations.write',
    openapi: {
      method: 'PATCH',
      path: '/organizations/{organizationId}',
      tags: ['organizations'],
      summary: 'Organization settings (its name); owners only',
      errorResponses: { 400: 'Invalid input or authless mode', 401: 'Not signed in', 403: 'Not an owner of it' },
    },
  })
  .input(updateOrganizationInputSchema)
  .output(organizationSchema)
  .mutation(({ ctx, input }) => renameOrganization({ em: ctx.em, actor: ctx.actor, organizationId: input.organizationId, name: input.name }));
