import { connectionParams } from '../../contracts/params.js';
import { workerListSchema } from '../../contracts/workers.js';
import { listWorkers } from './list-workers.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = connectionProcedure
  .meta({
    permission: 'workers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/workers',
      tags: ['workers'],
      summary: "Workers connected to the connection's queues (from CLIENT LIST)",
      description: 'When the store does not allow CLIENT LIST, answers 200 with an empty list and `warnings`.',
    },
  })
  .input(connectionParams)
  .output(workerListSchema)
  .query(({ ctx }) => listWorkers({ store: ctx.store }));
