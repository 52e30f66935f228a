import { deletedAnswer, deletedSchema } from '../../contracts/deleted.js';
import { alertRuleParams } from '../../contracts/alerts.js';
import { AppError } from '../../contracts/app-error.js';
import { AlertEvent, AlertRule } from '../../server/persistence/entities/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { findRule } from './alert-rules.js';

export const deleteRuleProcedure = connectionProcedure
  .meta({
    permission: 'alerts.write',
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/alerts/rules/{ruleId}',
      tags: ['alerts'],
      summary: 'Remove an alert rule and its events',
    },
  })
  .input(alertRuleParams)
  .output(deletedSchema)
  .mutation(async ({ ctx, input }) => {
    const em = ctx.services.persistence.fork();
    const rule = await findRule(
      { em, organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id },
      input.ruleId,
    );
    // Only the call that removed the row succeeds: a concurrent second delete finds nothing.
    const removed = await em.transactional(async (tx) => {
      await tx.nativeDelete(AlertEvent, { ruleId: rule.id });
      return tx.nativeDelete(AlertRule, { id: rule.id });
    });
    if (removed === 0) throw new AppError('NOT_FOUND', `Alert rule ${rule.id} was not found`, { ruleId: rule.id });
    return deletedAnswer(rule.id, {});
  });
