import { setActiveOrganizationInputSchema, successSchema } from '../../contracts/auth.js';
import { setActiveOrganization } from '../../domain/auth/set-active-organization.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const setActiveOrganizationRoute = accountProcedure
  .meta({
    permission: 'session.write',
    openapi: {
      method: 'POST',
      path: '/auth/organization/set-active',
      tags: ['auth'],
      summary: 'Choose the organization the session acts in (the x-organization-id header overrides it per request)',
      errorResponses: { 400: 'Authless mode', 401: 'Not signed in', 403: 'Not a member, or called with a token' },
    },
  })
  .input(setActiveOrganizationInputSchema)
  .output(successSchema)
  .mutation(async ({ ctx, input }) =>
    setActiveOrganization({ em: ctx.em, hash: ctx.services.auth.hash, identity: await ctx.identify(), organizationId: input.organizationId }),
  );
