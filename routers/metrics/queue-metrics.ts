import { parsePriorities, queueMetricsInput, queueMetricsSchema } from '../../contracts/metrics.js';
import { getQueueMetrics } from './get-queue-metrics.js';
import { metricsRange } from './metrics-range.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const queueMetricsProcedure = queueProcedure
  .meta({
    permission: 'metrics.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}/metrics',
      tags: ['metrics'],
      summary: "One queue's native BullMQ telemetry",
      description:
        'Introspection calls the store does not allow become `warnings` entries and null fields, never errors.',
    },
  })
  .input(queueMetricsInput)
  .output(queueMetricsSchema)
  .query(({ ctx, input }) =>
    getQueueMetrics({
      store: ctx.store,
      ref: ctx.queue.ref,
      options: {
        range: metricsRange(input),
        priorities: parsePriorities(input.priorities),
        includePrometheus: input.includePrometheus ?? false,
      },
    }),
  );
