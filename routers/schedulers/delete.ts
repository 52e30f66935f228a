import { deleteSchedulerInput, deleteSchedulerResultSchema } from '../../contracts/schedulers.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { removeScheduler } from './remove-scheduler.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const deleteProcedure = queueProcedure
  .meta({
    permission: 'schedulers.delete',
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      tags: ['schedulers'],
      summary: 'Delete a job scheduler and its pending job',
    },
  })
  .input(deleteSchedulerInput)
  .output(deleteSchedulerResultSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(input.schedulerId, await removeScheduler({ queue: ctx.queue, schedulerId: input.schedulerId })),
  );
