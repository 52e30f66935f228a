import { listQueuesInput, queueListSchema } from '../../contracts/queues.js';
import { listQueues as list } from '../../domain/queues/list-queues.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listQueues = connectionProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues',
      tags: ['queues'],
      summary: 'List the queues found on the store, a page at a time',
      description: 'pageSize above 100 is a 400. Queue names are cached per connection for SERVICE_QUEUE_LIST_CACHE_MS.',
      errorResponses: { 400: 'Invalid query', 404: 'Connection not found', 503: 'Store unavailable' },
    },
  })
  .input(listQueuesInput)
  .output(queueListSchema)
  .query(({ ctx, input: { connectionId: _, ...query } }) => list({ store: ctx.store, directory: ctx.services.queueDirectory, query }));
