import { parsePriorities, queueMetricsInput, queueMetricsSchema } from '../../contracts/metrics.js';
import { getQueueMetrics } from '../../domain/metrics/get-queue-metrics.js';
import { metricsRange } from '../../domain/metrics/metrics-range.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const queueMetrics = connectionProcedure
  .meta({
    permission: 'metrics.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}/metrics',
      tags: ['metrics'],
      summary: "One queue's native BullMQ telemetry",
      description: 'Introspection calls the store does not allow become `warnings` entries and null fields, never errors.',
      errorResponses: { 400: 'Invalid query parameter', 404: 'No such connection or queue', 503: 'The store is unavailable' },
    },
  })
  .input(queueMetricsInput)
  .output(queueMetricsSchema)
  .query(({ ctx, input }) =>
    getQueueMetrics({
      store: ctx.store,
      queueName: input.queueName,
      prefix: input.prefix,
      options: { range: metricsRange(input), priorities: parsePriorities(input.priorities), includePrometheus: input.includePrometheus ?? false },
    }),
  );
