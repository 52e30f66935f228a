import { setActiveOrganizationInputSchema, successSchema } from '../../contracts/auth.js';
import { switchActiveOrganization } from './switch-active-organization.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const setActiveOrganizationProcedure = accountProcedure
  .meta({
    permission: 'session.write',
    errors: { AUTHLESS_MODE: '', FORBIDDEN: 'Called with a token, or not a member of it' },
    sessionOnly: true,
    // An id from GET /organizations; any other is refused with 403.
    bodyExample: { organizationId: '0b7c2f4e-5d1a-4c3b-9e8f-1a2b3c4d5e6f' },
    openapi: {
      method: 'POST',
      path: '/auth/organization/set-active',
      tags: ['auth'],
      summary: 'Choose the organization the session acts in (the x-organization-id header overrides it per request)',
    },
  })
  .input(setActiveOrganizationInputSchema)
  .output(successSchema)
  .mutation(async ({ ctx, input }) =>
    switchActiveOrganization({
      em: ctx.em,
      hash: ctx.services.auth.hash,
      identity: await ctx.identify(),
      organizationId: input.organizationId,
    }),
  );
