import { listQueueSchedulersInput, schedulerListSchema } from '../../contracts/schedulers.js';
import { listQueueSchedulers as listSchedulersOfQueue } from '../../domain/schedulers/list-queue-schedulers.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listQueueSchedulers = connectionProcedure
  .meta({
    permission: 'schedulers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}',
      tags: ['schedulers'],
      summary: "One queue's job schedulers, soonest next run first (paged)",
      errorResponses: { 400: 'Invalid page parameters', 404: 'No such connection or queue', 503: 'The store is unavailable' },
    },
  })
  .input(listQueueSchedulersInput)
  .output(schedulerListSchema)
  .query(({ ctx, input }) => listSchedulersOfQueue({ store: ctx.store, queueName: input.queueName, prefix: input.prefix, page: input }));
