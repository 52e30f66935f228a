import { z } from 'zod';
import { organizationListSchema } from '../../contracts/organizations.js';
import { listOrganizations } from './list-organizations.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = authedPersistedProcedure
  .meta({
    permission: 'organizations.read',
    openapi: {
      method: 'GET',
      path: '/organizations',
      tags: ['organizations'],
      summary: 'Organizations you are a member of, with your role',
    },
  })
  .input(z.void())
  .output(organizationListSchema)
  .query(({ ctx }) => listOrganizations({ em: ctx.em, actor: ctx.actor }));
