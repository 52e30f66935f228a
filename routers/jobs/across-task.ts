import type { TaskHandler } from '../../server/tasks/task-handler.js';
import { actOnBatch, type AcrossAction, type AcrossStatus } from './across-queues.js';

interface AcrossParams {
  status: AcrossStatus;
  queues: Array<{ name: string; prefix: string }>;
}

/** Retry or remove by status across the queues matched when the task was made, queue by queue, resumable. */
function acrossTask(action: AcrossAction): TaskHandler {
  return {
    kind: action === 'retry' ? 'jobs.retryAcross' : 'jobs.removeAcross',
    async run(context) {
      const params = context.params as unknown as AcrossParams;
      let index = Number(context.cursor?.queueIndex ?? 0);
      let acted = Number(context.cursor?.acted ?? 0);
      for (; index < params.queues.length; index++) {
        const ref = params.queues[index]!;
        const queue = await context.store.queue(ref.name, ref.prefix);
        for (let more = true; more; ) {
          const batch = await actOnBatch(queue, action, params.status, context.firstStartedAt, context.batchSize);
          acted += batch.acted;
          more = batch.more;
          if (!(await context.progress(batch.acted, { queueIndex: more ? index : index + 1, acted })))
            return { acted, queues: index };
          await context.throttle();
        }
      }
      return { acted, queues: params.queues.length };
    },
  };
}

export const retryAcrossTask = acrossTask('retry');
export const removeAcrossTask = acrossTask('remove');
