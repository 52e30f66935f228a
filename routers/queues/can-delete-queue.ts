import { canDeleteResultSchema, queueTarget } from '../../contracts/queues.js';
import { canDeleteQueue as canDelete } from '../../domain/queues/delete-queue.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const canDeleteQueue = connectionProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}/can-delete',
      tags: ['queues'],
      summary: 'Whether the queue may be deleted: only completed jobs may remain',
      errorResponses: { 404: 'Connection or queue not found', 503: 'Store unavailable' },
    },
  })
  .input(queueTarget)
  .output(canDeleteResultSchema)
  .query(({ ctx, input }) => canDelete({ store: ctx.store, queueName: input.queueName, prefix: input.prefix }));
