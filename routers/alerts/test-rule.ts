import { alertRuleParams, alertRuleTestSchema } from '../../contracts/alerts.js';
import { readRule } from '../../server/alerts/rule-values.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { findRule } from './alert-rules.js';

export const testRuleProcedure = connectionProcedure
  .meta({
    permission: 'alerts.read',
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/alerts/rules/{ruleId}/test',
      tags: ['alerts'],
      summary: 'Read a rule against the history now, without firing or delivering',
    },
  })
  .input(alertRuleParams)
  .output(alertRuleTestSchema)
  .mutation(async ({ ctx, input }) => {
    const em = ctx.services.persistence.fork();
    const rule = await findRule(
      { em, organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id },
      input.ruleId,
    );
    const reading = await readRule(
      em,
      rule.connectionId,
      rule,
      Date.now(),
      ctx.services.config.history.sampleIntervalMs,
    );
    const values = reading.subjects.map((subject) => subject.value);
    return {
      wouldFire: reading.subjects.some((subject) => subject.firing),
      value: values.length > 0 ? Math.max(...values) : null,
      threshold: reading.threshold,
      queues: reading.subjects.flatMap((subject) =>
        subject.queueName === null
          ? []
          : [{ queueName: subject.queueName, value: subject.value, wouldFire: subject.firing }],
      ),
    };
  });
