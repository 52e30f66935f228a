import { createSchedulerInput, schedulerSchema } from '../../contracts/schedulers.js';
import { saveScheduler } from '../../domain/schedulers/save-scheduler.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const createScheduler = connectionProcedure
  .meta({
    permission: 'schedulers.write',
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}',
      tags: ['schedulers'],
      summary: 'Create a job scheduler (cron or interval)',
      description: 'Invalid cron pattern or timezone → 400 naming the field. An id that exists → 409.',
      errorResponses: { 400: 'Invalid schedule', 404: 'No such connection', 409: 'The scheduler exists', 503: 'The store is unavailable' },
    },
  })
  .input(createSchedulerInput)
  .output(schedulerSchema)
  .mutation(({ ctx, input }) => saveScheduler({ store: ctx.store, ...input, mode: 'create' }));
