import { alertRuleListSchema } from '../../contracts/alerts.js';
import { connectionParams } from '../../contracts/params.js';
import { AlertRule } from '../../server/persistence/entities/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { toRuleView } from './alert-rules.js';

export const listRulesProcedure = connectionProcedure
  .meta({
    permission: 'alerts.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/alerts/rules',
      tags: ['alerts'],
      summary: "The connection's alert rules, by name",
    },
  })
  .input(connectionParams)
  .output(alertRuleListSchema)
  .query(async ({ ctx }) => {
    const rows = await ctx.services.persistence
      .fork()
      .find(
        AlertRule,
        { connectionId: ctx.store.connection.id, organizationId: ctx.actor.organizationId },
        { orderBy: { name: 'asc', id: 'asc' } },
      );
    return { rules: rows.map(toRuleView) };
  });
