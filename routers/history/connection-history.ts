import { connectionHistoryInput, connectionHistorySchema } from '../../contracts/history.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { historyRange } from './history-steps.js';
import { readConnectionHistory } from './read-history.js';

export const connectionHistoryProcedure = connectionProcedure
  .meta({
    permission: 'history.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/history',
      tags: ['history'],
      summary: "The connection's queue totals and its store's facts over time",
      description:
        'Samples recorded every `SERVICE_SAMPLE_INTERVAL_SECONDS` (raw for 24 h, then 15-minute roll-ups for `SERVICE_HISTORY_DAYS`), merged into at most `points` steps, oldest first. Counts are the latest of a step, `completedDelta`/`failedDelta` its sums, `oldestWaitingSeconds` its worst, `up` false when any sample of the step found the store down.',
    },
  })
  .input(connectionHistoryInput)
  .output(connectionHistorySchema)
  .query(({ ctx, input }) =>
    readConnectionHistory(
      ctx.services.persistence.fork(),
      ctx.store.connection.id,
      historyRange(input, ctx.services.config.history.sampleIntervalMs),
    ),
  );
