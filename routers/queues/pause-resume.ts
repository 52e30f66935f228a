import { pauseResultSchema, queueTarget } from '../../contracts/queues.js';
import { setQueuePaused } from './pause-queue.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

/** Pause and resume are one switch: same input, output and errors, opposite direction. */
function pauseSwitch(paused: boolean) {
  return queueProcedure
    .meta({
      permission: 'queues.pause',
      openapi: {
        method: 'POST',
        path: `/c/{connectionId}/queues/{queueName}/${paused ? 'pause' : 'resume'}`,
        tags: ['queues'],
        summary: paused ? 'Pause a queue globally' : 'Resume a paused queue',
      },
    })
    .input(queueTarget)
    .output(pauseResultSchema)
    .mutation(({ ctx }) => setQueuePaused({ queue: ctx.queue, paused }));
}

export const pauseProcedure = pauseSwitch(true);
export const resumeProcedure = pauseSwitch(false);
