import { connectionParams } from '../../contracts/params.js';
import { workerListSchema } from '../../contracts/workers.js';
import { listWorkers as listWorkersOfStore } from '../../domain/workers/list-workers.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listWorkers = connectionProcedure
  .meta({
    permission: 'workers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/workers',
      tags: ['workers'],
      summary: "Workers connected to the connection's queues (from CLIENT LIST)",
      description: 'When the store does not allow CLIENT LIST, answers 200 with an empty list and `warnings`.',
      errorResponses: { 404: 'No such connection', 503: 'The store is unavailable' },
    },
  })
  .input(connectionParams)
  .output(workerListSchema)
  .query(({ ctx }) => listWorkersOfStore({ store: ctx.store }));
