import { purgeInput, purgeResultSchema } from '../../contracts/queues.js';
import { purgeQueue as purge } from '../../domain/queues/purge-queue.js';
import { queueActionLogger } from '../../server/queues/queue-action-log.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const purgeQueue = connectionProcedure
  .meta({
    permission: 'queues.purge',
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/queues/{queueName}/purge',
      tags: ['queues'],
      summary: 'Remove every job of the selected statuses; the queue stays',
      description:
        'Batches of 1000 per status until empty, at most 500 batches per status. 409 PURGE_CAP_REACHED names the `status` and what was removed so far.',
      errorResponses: {
        400: 'confirmName differs from the queue name, or statuses empty or invalid (nothing removed)',
        404: 'Connection or queue not found',
        409: 'Safety cap of 500 batches reached for `status`',
        503: 'Store unavailable',
      },
    },
  })
  .input(purgeInput)
  .output(purgeResultSchema)
  .mutation(({ ctx, input }) => purge({ ...input, store: ctx.store, record: queueActionLogger(ctx, 'queues.purge') }));
