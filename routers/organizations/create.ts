import { createOrganizationInputSchema, organizationSchema } from '../../contracts/organizations.js';
import { createOrganization } from '../../server/auth/create-organization.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createProcedure = accountProcedure
  .meta({
    permission: 'organizations.create',
    successStatus: 201,
    location: '/organizations/{id}',
    errors: { AUTHLESS_MODE: '', FORBIDDEN: 'Called with a token' },
    sessionOnly: true,
    bodyExample: { name: 'Platform team' },
    openapi: {
      method: 'POST',
      path: '/organizations',
      tags: ['organizations'],
      summary: 'Create an organization; you become its owner',
    },
  })
  .input(createOrganizationInputSchema)
  .output(organizationSchema)
  .mutation(({ ctx, input }) => createOrganization({ em: ctx.em, name: input.name, actor: ctx.actor }));
