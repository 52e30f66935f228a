import { schedulerSchema, updateSchedulerInput } from '../../contracts/schedulers.js';
import { saveScheduler } from './save-scheduler.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const updateProcedure = queueProcedure
  .meta({
    permission: 'schedulers.write',
    errors: { CONFLICT: 'The schedule produces no further run' },
    bodyExample: { name: 'digest', schedule: { type: 'every', everyMs: 3600000 }, data: { kind: 'hourly' } },
    openapi: {
      method: 'PUT',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      tags: ['schedulers'],
      summary: 'Replace a job scheduler',
    },
  })
  .input(updateSchedulerInput)
  .output(schedulerSchema)
  .mutation(({ ctx, input }) => saveScheduler({ ...input, store: ctx.store, queue: ctx.queue, mode: 'update' }));
