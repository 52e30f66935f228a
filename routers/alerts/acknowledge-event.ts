import { acknowledgeAlertEventInput, acknowledgedAlertEventSchema } from '../../contracts/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { acknowledgeEvent } from './alert-events.js';

export const acknowledgeEventProcedure = connectionProcedure
  .meta({
    permission: 'alerts.write',
    bodyExample: { snoozeRuleUntil: '2026-01-01T06:00:00Z' },
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/alerts/events/{eventId}/acknowledge',
      tags: ['alerts'],
      summary: 'Mark an alert event as seen (the first acknowledgement time is kept), and optionally snooze its rule',
      description:
        'With `snoozeRuleUntil` the rule is snoozed in the same transaction: no firing and no delivery (resolutions included) until then. Lift a snooze with `PATCH …/alerts/rules/{ruleId}` `{ snoozedUntil: null }`.',
    },
  })
  .input(acknowledgeAlertEventInput)
  .output(acknowledgedAlertEventSchema)
  .mutation(({ ctx, input }) =>
    acknowledgeEvent(
      {
        em: ctx.services.persistence.fork(),
        organizationId: ctx.actor.organizationId,
        connectionId: ctx.store.connection.id,
      },
      input.eventId,
      input.snoozeRuleUntil,
    ),
  );
