import { queueDetailSchema, queueTarget } from '../../contracts/queues.js';
import { getQueue as get } from '../../domain/queues/get-queue.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const getQueue = connectionProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}',
      tags: ['queues'],
      summary: 'One queue: counts, pause flag, workers, job schedulers and meta',
      errorResponses: { 400: 'Unknown prefix', 404: 'Connection or queue not found', 503: 'Store unavailable' },
    },
  })
  .input(queueTarget)
  .output(queueDetailSchema)
  .query(({ ctx, input }) => get({ store: ctx.store, queueName: input.queueName, prefix: input.prefix }));
