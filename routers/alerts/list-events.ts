import { alertEventPageSchema, listAlertEventsInput } from '../../contracts/alerts.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { listEvents } from './alert-events.js';

export const listEventsProcedure = connectionProcedure
  .meta({
    permission: 'alerts.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/alerts/events',
      tags: ['alerts'],
      summary: "The connection's alert events, newest first",
    },
  })
  .input(listAlertEventsInput)
  .output(alertEventPageSchema)
  .query(({ ctx, input: { connectionId: _connectionId, ...query } }) =>
    listEvents(
      {
        em: ctx.services.persistence.fork(),
        organizationId: ctx.actor.organizationId,
        connectionId: ctx.store.connection.id,
      },
      query,
    ),
  );
