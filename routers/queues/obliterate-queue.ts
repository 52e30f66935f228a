import { obliterateInput, obliterateResultSchema } from '../../contracts/queues.js';
import { obliterateQueue as obliterate } from '../../domain/queues/obliterate-queue.js';
import { queueActionLogger } from '../../server/queues/queue-action-log.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const obliterateQueue = connectionProcedure
  .meta({
    permission: 'queues.obliterate',
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/queues/{queueName}/obliterate',
      tags: ['queues'],
      summary: 'Remove the queue and all its keys, active jobs included',
      errorResponses: { 400: 'confirmName given and different from the queue name', 404: 'Connection or queue not found', 503: 'Store unavailable' },
    },
  })
  .input(obliterateInput)
  .output(obliterateResultSchema)
  .mutation(({ ctx, input }) =>
    obliterate({ ...input, store: ctx.store, directory: ctx.services.queueDirectory, record: queueActionLogger(ctx, 'queues.obliterate') }),
  );
