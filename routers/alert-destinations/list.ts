import { z } from 'zod';
import { alertDestinationListSchema } from '../../contracts/alerts.js';
import { AlertDestination } from '../../server/persistence/entities/alerts.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { toDestinationView } from './destination-rows.js';

export const listProcedure = authedPersistedProcedure
  .meta({
    permission: 'alerts.read',
    openapi: {
      method: 'GET',
      path: '/alerts/destinations',
      tags: ['alerts'],
      summary: "The organization's alert destinations (URLs shown as their origin)",
    },
  })
  .input(z.void())
  .output(alertDestinationListSchema)
  .query(async ({ ctx }) => {
    const rows = await ctx.em.find(
      AlertDestination,
      { organizationId: ctx.actor.organizationId },
      { orderBy: { name: 'asc', id: 'asc' } },
    );
    return { destinations: rows.map((row) => toDestinationView(row, ctx.services.secretCipher)) };
  });
