import { alertRuleSchema, updateAlertRuleInput } from '../../contracts/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { updateRule } from './alert-rules.js';

export const updateRuleProcedure = connectionProcedure
  .meta({
    permission: 'alerts.write',
    errors: { VALIDATION_FAILED: 'Invalid field, or a destination that does not exist' },
    bodyExample: { threshold: 20 },
    openapi: {
      method: 'PATCH',
      path: '/c/{connectionId}/alerts/rules/{ruleId}',
      tags: ['alerts'],
      summary: 'Change an alert rule: any of its fields; `snoozedUntil` silences it until then',
    },
  })
  .input(updateAlertRuleInput)
  .output(alertRuleSchema)
  .mutation(({ ctx, input: { connectionId: _connectionId, ruleId, ...changes } }) =>
    updateRule(
      {
        em: ctx.services.persistence.fork(),
        organizationId: ctx.actor.organizationId,
        connectionId: ctx.store.connection.id,
      },
      ruleId,
      changes,
    ),
  );
