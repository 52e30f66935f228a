import { schedulerParams, schedulerSchema } from '../../contracts/schedulers.js';
import { getScheduler as getSchedulerOfQueue } from '../../domain/schedulers/get-scheduler.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const getScheduler = connectionProcedure
  .meta({
    permission: 'schedulers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      tags: ['schedulers'],
      summary: 'One job scheduler with its next run',
      errorResponses: { 404: 'No such connection, queue or scheduler', 503: 'The store is unavailable' },
    },
  })
  .input(schedulerParams)
  .output(schedulerSchema)
  .query(({ ctx, input }) => getSchedulerOfQueue({ store: ctx.store, ...input }));
