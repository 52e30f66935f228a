import { alertRuleSchema, createAlertRuleInput } from '../../contracts/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { createRule } from './alert-rules.js';

export const createRuleProcedure = connectionProcedure
  .meta({
    permission: 'alerts.write',
    successStatus: 201,
    location: '/c/{connectionId}/alerts/rules/{id}',
    errors: {
      VALIDATION_FAILED: 'Invalid field, or a destination that does not exist',
      CONFLICT: 'The connection has 100 rules',
    },
    bodyExample: {
      name: 'emails failing',
      type: 'failed_count',
      threshold: 10,
      windowMinutes: 15,
      queues: { include: ['emails'] },
    },
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/alerts/rules',
      tags: ['alerts'],
      summary: 'Create an alert rule (at most 100 per connection)',
      description:
        'Evaluated after every history sample by the replica holding the sampler lease; firings and resolutions are delivered to `destinationIds`.',
    },
  })
  .input(createAlertRuleInput)
  .output(alertRuleSchema)
  .mutation(({ ctx, input: { connectionId: _connectionId, ...fields } }) =>
    createRule(
      {
        em: ctx.services.persistence.fork(),
        organizationId: ctx.actor.organizationId,
        connectionId: ctx.store.connection.id,
      },
      fields,
    ),
  );
