import { z } from 'zod';
import { organizationListSchema } from '../../contracts/organizations.js';
import { listOrganizations } from '../../domain/organizations/list-organizations.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';

export const listOrganizationsRoute = authedPersistedProcedure
  .meta({
    permission: 'organizations.read',
    openapi: { method: 'GET', path: '/organizations', tags: ['organizations'], summary: 'Organizations you are a member of, with your role', errorResponses: { 401: 'Not signed in' } },
  })
  .input(z.void())
  .output(organizationListSchema)
  .query(({ ctx }) => listOrganizations({ em: ctx.em, actor: ctx.actor }));
