import { queueHistoryInput, queueHistorySchema } from '../../contracts/history.js';
import { resolveQueue } from '../../server/bullmq/resolve-queue.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { historyRange } from './history-steps.js';
import { readQueueHistory, sampledPrefixes } from './read-history.js';

/**
 * Answers for a queue that was removed while its samples last; asks the store only when there
 * are none (404 when the queue is not there either).
 */
export const queueHistoryProcedure = connectionProcedure
  .meta({
    permission: 'history.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/queues/{queueName}/history',
      tags: ['history'],
      summary: "A queue's counts, throughput, oldest waiting age, paused flag and workers over time",
      description:
        'Samples merged into at most `points` steps, oldest first (see the connection history). Answers for a removed queue while its samples are kept; 404 only when the queue has neither samples nor keys.',
    },
  })
  .input(queueHistoryInput)
  .output(queueHistorySchema)
  .query(async ({ ctx, input }) => {
    const em = ctx.services.persistence.fork();
    const connectionId = ctx.store.connection.id;
    const range = historyRange(input, ctx.services.config.history.sampleIntervalMs);
    const sampled = await sampledPrefixes(em, connectionId, input.queueName);
    const samplePrefix = input.prefix ?? sampled[0];
    const prefix =
      samplePrefix !== undefined && sampled.includes(samplePrefix)
        ? samplePrefix
        : (await resolveQueue(ctx.store, { queueName: input.queueName, prefix: input.prefix })).ref.prefix;
    return readQueueHistory(em, { connectionId, prefix, queueName: input.queueName }, range);
  });
