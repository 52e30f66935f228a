import { queueDetailSchema, queueTarget } from '../../contracts/queues.js';
import { getQueue } from './get-queue.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const getProcedure = queueProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}',
      tags: ['queues'],
      summary: 'One queue: counts, pause flag, workers, job schedulers and meta',
    },
  })
  .input(queueTarget)
  .output(queueDetailSchema)
  .query(({ ctx }) => getQueue({ store: ctx.store, queue: ctx.queue }));
