import { createSchedulerInput, schedulerSchema } from '../../contracts/schedulers.js';
import { saveScheduler } from './save-scheduler.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const createProcedure = queueProcedure
  .meta({
    permission: 'schedulers.write',
    queue: 'create',
    successStatus: 201,
    location: '/c/{connectionId}/scheduled-jobs/queue/{queueName}/{id}',
    errors: { CONFLICT: 'The scheduler exists, or its schedule produces no further run' },
    bodyExample: {
      schedulerId: 'hourly-digest',
      name: 'digest',
      schedule: { type: 'every', everyMs: 3600000 },
      data: { kind: 'hourly' },
    },
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/scheduled-jobs/queue/{queueName}',
      tags: ['schedulers'],
      summary: 'Create a job scheduler (cron or interval); answers 201. Creates the queue when it does not exist',
      description: 'Invalid cron pattern or timezone → 400 naming the field. An id that exists → 409.',
    },
  })
  .input(createSchedulerInput)
  .output(schedulerSchema)
  .mutation(({ ctx, input }) => saveScheduler({ ...input, store: ctx.store, queue: ctx.queue, mode: 'create' }));
