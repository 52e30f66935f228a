import { deleteQueueInput, deleteResultSchema } from '../../contracts/queues.js';
import { deleteQueue as remove } from '../../domain/queues/delete-queue.js';
import { queueActionLogger } from '../../server/queues/queue-action-log.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const deleteQueue = connectionProcedure
  .meta({
    permission: 'queues.delete',
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/queues/{queueName}',
      tags: ['queues'],
      summary: 'Delete a queue that holds only completed jobs',
      description: '`confirmName` in the query string or a JSON body.',
      errorResponses: {
        400: 'confirmName differs from the queue name',
        404: 'Connection or queue not found',
        409: 'Jobs other than completed remain (nothing removed)',
        503: 'Store unavailable',
      },
    },
  })
  .input(deleteQueueInput)
  .output(deleteResultSchema)
  .mutation(({ ctx, input }) =>
    remove({ ...input, store: ctx.store, directory: ctx.services.queueDirectory, record: queueActionLogger(ctx, 'queues.delete') }),
  );
