import { cleanInput, cleanResultSchema, type PurgeableStatus } from '../../contracts/queues.js';
import { cleanQueue } from './clean-queue.js';
import { describeRemoval } from '../../server/trpc/middleware/audit-mutations.js';
import { queueProcedure } from '../../server/trpc/procedures.js';

export const cleanProcedure = queueProcedure
  .meta({
    permission: 'queues.clean',
    bodyExample: { status: 'completed', gracePeriod: 3600000, limit: 1000 },
    removes: describeRemoval((input: { status: PurgeableStatus }, result: { removed: number }) => ({
      status: input.status,
      count: result.removed,
    })),
    openapi: {
      method: 'POST',
      path: '/c/{connectionId}/queues/{queueName}/clean',
      tags: ['queues'],
      summary: 'Remove up to `limit` jobs of one status older than `gracePeriod` ms',
    },
  })
  .input(cleanInput)
  .output(cleanResultSchema)
  .mutation(({ ctx, input }) =>
    cleanQueue({
      store: ctx.store,
      queue: ctx.queue,
      status: input.status,
      gracePeriod: input.gracePeriod,
      limit: input.limit,
    }),
  );
