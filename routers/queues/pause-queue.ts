import { pauseResultSchema, queueTarget } from '../../contracts/queues.js';
import { setQueuePaused } from '../../domain/queues/pause-queue.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

const errorResponses = { 400: 'Unknown prefix', 404: 'Connection or queue not found', 503: 'Store unavailable' };

export const pauseQueue = connectionProcedure
  .meta({
    permission: 'queues.pause',
    openapi: { method: 'POST', path: '/c/{connectionId}/queues/{queueName}/pause', tags: ['queues'], summary: 'Pause a queue', errorResponses },
  })
  .input(queueTarget)
  .output(pauseResultSchema)
  .mutation(({ ctx, input }) => setQueuePaused({ store: ctx.store, queueName: input.queueName, prefix: input.prefix, paused: true }));

export const resumeQueue = connectionProcedure
  .meta({
    permission: 'queues.pause',
    openapi: { method: 'POST', path: '/c/{connectionId}/queues/{queueName}/resume', tags: ['queues'], summary: 'Resume a paused queue', errorResponses },
  })
  .input(queueTarget)
  .output(pauseResultSchema)
  .mutation(({ ctx, input }) => setQueuePaused({ store: ctx.store, queueName: input.queueName, prefix: input.prefix, paused: false }));
