import { organizationSchema, updateOrganizationInputSchema } from '../../contracts/organizations.js';
import { renameOrganization } from './update-organization.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const updateProcedure = accountProcedure
  .meta({
    permission: 'organizations.write',
    errors: { AUTHLESS_MODE: '' },
    bodyExample: { name: 'Platform team' },
    openapi: {
      method: 'PATCH',
      path: '/organizations/{organizationId}',
      tags: ['organizations'],
      summary: 'Organization settings (its name); owners only',
    },
  })
  .input(updateOrganizationInputSchema)
  .output(organizationSchema)
  .mutation(({ ctx, input }) =>
    renameOrganization({ em: ctx.em, actor: ctx.actor, organizationId: input.organizationId, name: input.name }),
  );
