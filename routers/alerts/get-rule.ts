import { alertRuleParams, alertRuleSchema } from '../../contracts/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { findRule, toRuleView } from './alert-rules.js';

export const getRuleProcedure = connectionProcedure
  .meta({
    permission: 'alerts.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/alerts/rules/{ruleId}',
      tags: ['alerts'],
      summary: 'One alert rule',
    },
  })
  .input(alertRuleParams)
  .output(alertRuleSchema)
  .query(async ({ ctx, input }) =>
    toRuleView(
      await findRule(
        {
          em: ctx.services.persistence.fork(),
          organizationId: ctx.actor.organizationId,
          connectionId: ctx.store.connection.id,
        },
        input.ruleId,
      ),
    ),
  );
