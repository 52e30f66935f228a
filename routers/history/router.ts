import { router } from '../../server/trpc/init.js';
import { connectionHistoryProcedure } from './connection-history.js';
import { queueHistoryProcedure } from './queue-history.js';
import { queueInsightsProcedure } from './queue-insights.js';

export const historyRouter = router({
  connection: connectionHistoryProcedure,
  queue: queueHistoryProcedure,
  insights: queueInsightsProcedure,
});
