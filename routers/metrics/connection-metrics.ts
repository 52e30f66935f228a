import { connectionMetricsInput, connectionMetricsSchema, parsePriorities } from '../../contracts/metrics.js';
import { getConnectionMetrics } from '../../domain/metrics/get-connection-metrics.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const connectionMetrics = connectionProcedure
  .meta({
    permission: 'metrics.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/metrics',
      tags: ['metrics'],
      summary: 'Counts and rates of every queue of the connection, and store facts',
      description: 'Pipelined across queues. `detailed=1|true` adds the full native payload per queue.',
      errorResponses: { 400: 'Invalid query parameter', 404: 'No such connection', 503: 'The store is unavailable' },
    },
  })
  .input(connectionMetricsInput)
  .output(connectionMetricsSchema)
  .query(({ ctx, input }) =>
    getConnectionMetrics({
      store: ctx.store,
      options: {
        windowMinutes: input.windowMinutes,
        priorities: parsePriorities(input.priorities),
        includePrometheus: input.includePrometheus ?? false,
        detailed: input.detailed ?? false,
      },
    }),
  );
