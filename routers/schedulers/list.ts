import { listSchedulersInput, schedulerListSchema } from '../../contracts/schedulers.js';
import { listSchedulers } from './list-schedulers.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = connectionProcedure
  .meta({
    permission: 'schedulers.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/scheduled-jobs',
      tags: ['schedulers'],
      summary: 'Job schedulers across every queue of the connection (paged)',
    },
  })
  .input(listSchedulersInput)
  .output(schedulerListSchema)
  .query(({ ctx, input }) => listSchedulers({ store: ctx.store, page: input }));
