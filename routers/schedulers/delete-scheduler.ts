import { deleteSchedulerResultSchema, schedulerParams } from '../../contracts/schedulers.js';
import { removeScheduler } from '../../domain/schedulers/remove-scheduler.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const deleteScheduler = connectionProcedure
  .meta({
    permission: 'schedulers.write',
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      tags: ['schedulers'],
      summary: 'Delete a job scheduler and its pending job',
      errorResponses: { 404: 'No such connection, queue or scheduler', 503: 'The store is unavailable' },
    },
  })
  .input(schedulerParams)
  .output(deleteSchedulerResultSchema)
  .mutation(({ ctx, input }) => removeScheduler({ store: ctx.store, ...input }));
