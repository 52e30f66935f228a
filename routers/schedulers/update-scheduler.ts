import { schedulerSchema, updateSchedulerInput } from '../../contracts/schedulers.js';
import { saveScheduler } from '../../domain/schedulers/save-scheduler.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const updateScheduler = connectionProcedure
  .meta({
    permission: 'schedulers.write',
    openapi: {
      method: 'PUT',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      tags: ['schedulers'],
      summary: 'Replace a job scheduler',
      errorResponses: { 400: 'Invalid schedule', 404: 'No such connection or scheduler', 503: 'The store is unavailable' },
    },
  })
  .input(updateSchedulerInput)
  .output(schedulerSchema)
  .mutation(({ ctx, input }) => saveScheduler({ store: ctx.store, ...input, mode: 'update' }));
