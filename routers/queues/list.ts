import { listQueuesInput, queueListSchema } from '../../contracts/queues.js';
import { listQueues } from './list-queues.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = connectionProcedure
  .meta({
    permission: 'queues.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues',
      tags: ['queues'],
      summary: 'List the queues found on the store, a page at a time',
      description:
        'pageSize above 100 is a 400. Names come from the persisted queue index (see GET /c/{connectionId}/discovery), reconciled by background scans; counts for the page are one script call. `state`, a count `sort` and counting `totals=true` read what they need of every queue concerned in the same few script calls (one per 1,000 queues), never one call per queue; counted totals are kept for SERVICE_QUEUE_LIST_CACHE_MS (`totalsAt` says when they were counted).',
    },
  })
  .input(listQueuesInput)
  .output(queueListSchema)
  .query(({ ctx, input: { connectionId: _, ...query } }) =>
    listQueues({ store: ctx.store, directory: ctx.services.queueDirectory, totals: ctx.services.queueTotals, query }),
  );
