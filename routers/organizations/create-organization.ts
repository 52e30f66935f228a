import { createOrganizationInputSchema, organizationSchema } from '../../contracts/organizations.js';
import { createOrganization } from '../../domain/organizations/create-organization.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createOrganizationRoute = accountProcedure
  .meta({
    permission: 'organizations.create',
    openapi: {
      method: 'POST',
      path: '/organizations',
      tags: ['organizations'],
      summary: 'Create an organization; you become its owner',
      errorResponses: { 400: 'Invalid input or authless mode', 401: 'Not signed in', 403: 'Called with a token' },
    },
  })
  .input(createOrganizationInputSchema)
  .output(organizationSchema)
  .mutation(({ ctx, input }) => createOrganization({ em: ctx.em, name: input.name, actor: ctx.actor }));
