import { listQueueSchedulersInput, schedulerListSchema } from '../../contracts/schedulers.js';
import { listQueueSchedulers } from './list-queue-schedulers.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { withHealth } from './scheduler-health.js';

export const listForQueueProcedure = queueProcedure
  .meta({
    permission: 'schedulers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}',
      tags: ['schedulers'],
      summary: "One queue's job schedulers, soonest next run first (paged)",
    },
  })
  .input(listQueueSchedulersInput)
  .output(schedulerListSchema)
  .query(async ({ ctx, input }) => {
    const list = await listQueueSchedulers({ queue: ctx.queue, page: input });
    return { ...list, schedulers: await withHealth(ctx.store, ctx.queue.ref, list.schedulers) };
  });
