import type { Queue } from 'bullmq';
import {
  globalConcurrencyInput,
  globalRateLimitInput,
  queueLimitsSchema,
  queueTarget,
} from '../../contracts/queues.js';
import { queueProcedure } from '../../server/trpc/procedures.js';
import { readQueueLimits } from './queue-limits.js';

/** One route of the throughput controls: the change, then the queue's limits as they now are. */
/** A DELETE here clears a setting of the queue: it answers the limits as they now are, as the PUT beside it does. */
const clearsSetting = {
  delete:
    "Clears one of the queue's settings rather than deleting a resource: it answers the queue's limits as they now are, as the PUT on the same path does.",
};

function limitRoute(method: 'PUT' | 'DELETE', path: string, summary: string) {
  return queueProcedure.meta({
    permission: 'queues.limits',
    ...(method === 'DELETE' ? { differs: clearsSetting } : {}),
    openapi: { method, path: `/c/{connectionId}/queues/{queueName}/${path}`, tags: ['queues'], summary },
  });
}
const changed = async (queue: Queue, change: () => Promise<unknown>) => {
  await change();
  return readQueueLimits(queue);
};

export const setGlobalConcurrencyProcedure = limitRoute(
  'PUT',
  'global-concurrency',
  'Limit how many jobs run at once across every worker of the queue',
)
  .meta({ bodyExample: { concurrency: 5 } })
  .input(globalConcurrencyInput)
  .output(queueLimitsSchema)
  .mutation(({ ctx, input }) =>
    changed(ctx.queue.queue, () => ctx.queue.queue.setGlobalConcurrency(input.concurrency)),
  );

export const removeGlobalConcurrencyProcedure = limitRoute(
  'DELETE',
  'global-concurrency',
  'Remove the global concurrency limit',
)
  .input(queueTarget)
  .output(queueLimitsSchema)
  .mutation(({ ctx }) => changed(ctx.queue.queue, () => ctx.queue.queue.removeGlobalConcurrency()));

export const setGlobalRateLimitProcedure = limitRoute(
  'PUT',
  'global-rate-limit',
  'Limit the queue to `max` jobs per `durationMs` across every worker',
)
  .meta({ bodyExample: { max: 100, durationMs: 1000 } })
  .input(globalRateLimitInput)
  .output(queueLimitsSchema)
  .mutation(({ ctx, input }) =>
    changed(ctx.queue.queue, () => ctx.queue.queue.setGlobalRateLimit(input.max, input.durationMs)),
  );

export const removeGlobalRateLimitProcedure = limitRoute('DELETE', 'global-rate-limit', 'Remove the global rate limit')
  .input(queueTarget)
  .output(queueLimitsSchema)
  .mutation(({ ctx }) => changed(ctx.queue.queue, () => ctx.queue.queue.removeGlobalRateLimit()));

export const clearRateLimitProcedure = limitRoute(
  'DELETE',
  'rate-limit',
  'Clear a rate limit a worker tripped, so the queue runs again at once',
)
  .input(queueTarget)
  .output(queueLimitsSchema)
  .mutation(({ ctx }) => changed(ctx.queue.queue, () => ctx.queue.queue.removeRateLimitKey()));
