import { schedulerParams, schedulerSchema } from '../../contracts/schedulers.js';
import { getScheduler } from './get-scheduler.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { withHealth } from './scheduler-health.js';

export const getProcedure = queueProcedure
  .meta({
    permission: 'schedulers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      tags: ['schedulers'],
      summary: 'One job scheduler with its next run',
    },
  })
  .input(schedulerParams)
  .output(schedulerSchema)
  .query(
    async ({ ctx, input }) =>
      (
        await withHealth(ctx.store, ctx.queue.ref, [
          await getScheduler({ queue: ctx.queue, schedulerId: input.schedulerId }),
        ])
      )[0]!,
  );
