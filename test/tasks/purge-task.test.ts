import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTask } from '../../routers/queues/purge-task.js';
import type { TaskContext } from '../../server/tasks/task-handler.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { redisStatusCleaning } from '../../server/bullmq/status-cleaning.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

/** The purge task's handler on a real store, with a context that records what the runner would. */
describe('purge task', () => {
  const fixture = storeFixture();
  const queues: Queue[] = [];
  beforeAll(async () => {
    await fixture.redis.connect();
    await seedQueue(fixture.bullmq, 'batched', { completed: 2300, failed: 3, waiting: 2 }).then((queue) =>
      queues.push(queue),
    );
  }, 60_000);
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await fixture.cleanup();
  });

  const contextFor = (queueName: string, cursor: Record<string, unknown> | null, stopAfter = Infinity) => {
    const progress: Array<{ processed: number; cursor: Record<string, unknown> | null }> = [];
    const store = {
      client: fixture.redis,
      bulkCallsInFlight: 4,
      ...redisStatusCleaning(fixture.redis),
      queue: (name: string, prefix: string) => {
        const queue = new Queue(name, { connection: fixture.redis, prefix });
        queues.push(queue);
        return queue;
      },
    } as unknown as StoreHandle;
    const context: TaskContext = {
      taskId: 't',
      params: { statuses: ['completed', 'failed'], prefix: fixture.prefix },
      cursor,
      queueName,
      store,
      openStore: async () => store,
      firstStartedAt: Date.now(),
      batchSize: 1000,
      jobsPerProgress: 1000,
      progress: async (processed, next) => {
        progress.push({ processed, cursor: structuredClone(next) });
        return progress.length < stopAfter;
      },
      throttle: async () => undefined,
    };
    return { context, progress };
  };

  it('records progress once per batch of 1000, and the batch that empties a status moves the cursor on', async () => {
    const { context, progress } = contextFor('batched', null, 2);
    // Stopped after two batches (a cancel), as the runner would: where it stopped is in the cursor.
    expect(await purgeTask.run(context)).toEqual({ removedByStatus: { completed: 2000 } });
    const resumed = contextFor('batched', progress.at(-1)!.cursor);
    expect(await purgeTask.run(resumed.context)).toEqual({
      statusesPurged: ['completed', 'failed'],
      totalRemoved: 2303,
      removedByStatus: { completed: 2300, failed: 3 },
    });
    expect([...progress, ...resumed.progress].map((step) => [step.processed, step.cursor!.statusIndex])).toEqual([
      [1000, 0],
      [1000, 0],
      [300, 1],
      [3, 2],
    ]);
    expect(await queues[0]!.getJobCounts('completed', 'failed', 'waiting')).toEqual({
      completed: 0,
      failed: 0,
      waiting: 2,
    });
  });
});
