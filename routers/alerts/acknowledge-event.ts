import { alertEventParams, alertEventSchema } from '../../contracts/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { acknowledgeEvent } from './alert-events.js';

export const acknowledgeEventProcedure = connectionProcedure
  .meta({
    permission: 'alerts.write',
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/alerts/events/{eventId}/acknowledge',
      tags: ['alerts'],
      summary: 'Mark an alert event as seen (the first acknowledgement time is kept)',
    },
  })
  .input(alertEventParams)
  .output(alertEventSchema)
  .mutation(({ ctx, input }) =>
    acknowledgeEvent({ em: ctx.services.persistence.fork(), organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id }, input.eventId),
  );
