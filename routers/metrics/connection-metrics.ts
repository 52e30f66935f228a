import { connectionMetricsInput, connectionMetricsSchema, parsePriorities } from '../../contracts/metrics.js';
import { getConnectionMetrics } from './get-connection-metrics.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const connectionMetricsProcedure = connectionProcedure
  .meta({
    permission: 'metrics.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/metrics',
      tags: ['metrics'],
      summary: 'Counts and rates of every queue of the connection, and store facts',
      description:
        "Pipelined across queues. `detailed=1|true` adds the full native payload per queue. Over 10,000 queues, or with `limit`/`cursor`, `queues` is one page (`nextCursor`) and `totals` every queue's.",
    },
  })
  .input(connectionMetricsInput)
  .output(connectionMetricsSchema)
  .query(({ ctx, input }) =>
    getConnectionMetrics({
      store: ctx.store,
      directory: ctx.services.queueDirectory,
      totals: ctx.services.queueTotals,
      options: {
        windowMinutes: input.windowMinutes,
        priorities: parsePriorities(input.priorities),
        includePrometheus: input.includePrometheus ?? false,
        detailed: input.detailed ?? false,
        page: { limit: input.limit, cursor: input.cursor },
      },
    }),
  );
