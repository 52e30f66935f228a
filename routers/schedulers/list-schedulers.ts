import { listSchedulersInput, schedulerListSchema } from '../../contracts/schedulers.js';
import { listSchedulers as listSchedulersOfStore } from '../../domain/schedulers/list-schedulers.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listSchedulers = connectionProcedure
  .meta({
    permission: 'schedulers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/scheduled-jobs',
      tags: ['schedulers'],
      summary: 'Job schedulers across every queue of the connection (paged)',
      errorResponses: { 400: 'Invalid page parameters', 404: 'No such connection', 503: 'The store is unavailable' },
    },
  })
  .input(listSchedulersInput)
  .output(schedulerListSchema)
  .query(({ ctx, input }) => listSchedulersOfStore({ store: ctx.store, page: input }));
