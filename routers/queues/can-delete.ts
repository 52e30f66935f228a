import { canDeleteResultSchema, queueTarget } from '../../contracts/queues.js';
import { canDeleteQueue } from './delete-queue.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const canDeleteProcedure = queueProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}/can-delete',
      tags: ['queues'],
      summary: 'Whether the queue may be deleted: only completed jobs may remain',
    },
  })
  .input(queueTarget)
  .output(canDeleteResultSchema)
  .query(({ ctx }) => canDeleteQueue({ store: ctx.store, queue: ctx.queue }));
