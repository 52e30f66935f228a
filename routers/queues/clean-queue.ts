import { cleanInput, cleanResultSchema } from '../../contracts/queues.js';
import { cleanQueue as clean } from '../../domain/queues/clean-queue.js';
import { queueActionLogger } from '../../server/queues/queue-action-log.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const cleanQueue = connectionProcedure
  .meta({
    permission: 'queues.clean',
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/queues/{queueName}/clean',
      tags: ['queues'],
      summary: 'Remove up to `limit` jobs of one status older than `gracePeriod` ms',
      errorResponses: { 400: 'Invalid input', 404: 'Connection or queue not found', 503: 'Store unavailable' },
    },
  })
  .input(cleanInput)
  .output(cleanResultSchema)
  .mutation(({ ctx, input }) => clean({ ...input, store: ctx.store, record: queueActionLogger(ctx, 'queues.clean') }));
