import { pauseResultSchema, queueTarget } from '../../contracts/queues.js';
import { setQueuePaused } from '../../domain/queues/pause-queue.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

/** Pause and resume are one switch: same input, output and errors, opposite direction. */
function pauseSwitch(paused: boolean) {
  return connectionProcedure
    .meta({
      permission: 'queues.pause',
      openapi: {
        method: 'POST',
        path: `/c/{connectionId}/queues/{queueName}/${paused ? 'pause' : 'resume'}`,
        tags: ['queues'],
        summary: paused ? 'Pause a queue globally' : 'Resume a paused queue',
        errorResponses: { 400: 'Unknown prefix', 404: 'Connection or queue not found', 503: 'Store unavailable' },
      },
    })
    .input(queueTarget)
    .output(pauseResultSchema)
    .mutation(({ ctx, input }) => setQueuePaused({ store: ctx.store, queueName: input.queueName, prefix: input.prefix, paused }));
}

export const pauseQueue = pauseSwitch(true);
export const resumeQueue = pauseSwitch(false);
