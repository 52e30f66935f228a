import { organizationParams, organizationSchema } from '../../contracts/organizations.js';
import { AppError } from '../../contracts/app-error.js';
import { organizationView } from '../../server/auth/create-organization.js';
import { Organization } from '../../server/persistence/entities/organization.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';

/** The caller acts in the path's organization (server/trpc/middleware/authenticate.ts): its role there is the actor's. */
export const getProcedure = authedPersistedProcedure
  .meta({
    permission: 'organizations.read',
    errors: { NOT_FOUND: 'No such organization' },
    openapi: {
      method: 'GET',
      path: '/organizations/{organizationId}',
      tags: ['organizations'],
      summary: 'An organization you are a member of, with your role',
    },
  })
  .input(organizationParams)
  .output(organizationSchema)
  .query(async ({ ctx, input }) => {
    const organization = await ctx.em.findOne(Organization, { id: input.organizationId });
    if (!organization) throw new AppError('NOT_FOUND', `Organization ${input.organizationId} was not found`);
    return organizationView(organization, ctx.actor.role);
  });
