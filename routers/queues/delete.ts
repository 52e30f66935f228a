import { deleteQueueInput, deleteResultSchema, type JobCounts } from '../../contracts/queues.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { deleteQueue } from './delete-queue.js';
import { describeRemoval } from '../../server/trpc/middleware/audit-mutations.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const deleteProcedure = queueProcedure
  .meta({
    permission: 'queues.delete',
    confirm: 'queue',
    errors: { CONFIRMATION_MISMATCH: '', QUEUE_NOT_EMPTY: '' },
    queue: 'remove',
    removes: describeRemoval((_input, result: { removedJobCounts: JobCounts }) => ({
      queue: true,
      jobCounts: result.removedJobCounts,
    })),
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/queues/{queueName}',
      tags: ['queues'],
      summary: 'Delete a queue that holds only completed jobs',
      description: '`confirmName` in the query string or a JSON body.',
    },
  })
  .input(deleteQueueInput)
  .output(deleteResultSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(input.queueName, await deleteQueue({ store: ctx.store, queue: ctx.queue })),
  );
