import { queueInsightsInput, queueInsightsSchema } from '../../contracts/history-insights.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { readInsights } from './read-insights.js';

export const queueInsightsProcedure = queueProcedure
  .meta({
    permission: 'history.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}/history/insights',
      tags: ['history'],
      summary: 'The job names that failed most and the slowest jobs of a window, with processing and wait percentiles',
      description:
        'Read from the store now (not from the samples): the newest 5,000 completed and 5,000 failed jobs of the window, by finish time. `exact` says whether they were all the window held.',
    },
  })
  .input(queueInsightsInput)
  .output(queueInsightsSchema)
  .query(({ ctx, input }) => readInsights(ctx.store, ctx.queue.ref, input.window));
