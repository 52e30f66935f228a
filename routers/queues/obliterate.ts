import { obliterateInput, obliterateResultSchema, type JobCounts } from '../../contracts/queues.js';
import { obliterateQueue } from './obliterate-queue.js';
import { describeRemoval } from '../../server/trpc/middleware/audit-mutations.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const obliterateProcedure = queueProcedure
  .meta({
    permission: 'queues.obliterate',
    confirm: 'queue',
    errors: { CONFIRMATION_MISMATCH: '' },
    bodyExample: { confirmName: 'emails' },
    queue: 'remove',
    removes: describeRemoval((_input, result: { removedJobCounts: JobCounts }) => ({
      queue: true,
      jobCounts: result.removedJobCounts,
    })),
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/queues/{queueName}/obliterate',
      tags: ['queues'],
      summary: 'Remove the queue and all its keys, active jobs included',
    },
  })
  .input(obliterateInput)
  .output(obliterateResultSchema)
  .mutation(({ ctx }) => obliterateQueue({ store: ctx.store, queue: ctx.queue }));
