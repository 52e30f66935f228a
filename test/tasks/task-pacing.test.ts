import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryCallSize } from '../../routers/jobs/bulk/retry-calls.js';
import { retryTask } from '../../routers/jobs/retry-task.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { TaskContext } from '../../server/tasks/task-handler.js';
import { jobsPerProgress } from '../../server/tasks/throttle.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

/** How a status-wide retry task paces itself: short script calls, progress recorded every `jobsPerProgress`. */
describe('task pacing', () => {
  const fixture = storeFixture();
  const queues: Queue[] = [];
  beforeAll(async () => {
    await fixture.redis.connect();
    queues.push(await seedQueue(fixture.bullmq, 'paced', { failed: 2600 }));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await fixture.cleanup();
  });

  it('records progress every ten batches when unthrottled, every batch when throttled', () => {
    expect(jobsPerProgress(null)).toBe(10_000);
    expect(jobsPerProgress(20_000)).toBe(1000);
    expect(jobsPerProgress(300)).toBe(300);
  });

  it('retries a status in script calls of at most 250 jobs, progress recorded once per jobsPerProgress', async () => {
    const queue = queues[0]!;
    const calls: number[] = [];
    const retryFinishedJobs = queue.backend.retryFinishedJobs.bind(queue.backend);
    queue.backend.retryFinishedJobs = (state, count, timestamp) => {
      calls.push(count ?? 0);
      return retryFinishedJobs(state, count, timestamp);
    };
    const progress: Array<[number, Record<string, unknown> | null]> = [];
    const context: TaskContext = {
      taskId: 't',
      params: { status: 'failed', prefix: fixture.prefix },
      cursor: null,
      queueName: 'paced',
      store: {
        queue: async () => queue,
        finishedBefore: async (_ref: unknown, status: 'failed', before: number) =>
          fixture.redis.zcount(`${fixture.prefix}:paced:${status}`, 0, before),
      } as unknown as StoreHandle,
      openStore: async () => {
        throw new Error('no other store');
      },
      firstStartedAt: Date.now(),
      batchSize: 1000,
      jobsPerProgress: 1000,
      progress: async (processed, cursor) => {
        progress.push([processed, structuredClone(cursor)]);
        return true;
      },
      throttle: async () => undefined,
    };
    expect(await retryTask.run(context)).toEqual({ retried: 2600 });
    expect(progress.map(([processed]) => processed)).toEqual([0, 1000, 1000, 600]);
    expect(progress.at(-1)![1]).toEqual({ retried: 2600, total: 2600 });
    expect(Math.max(...calls)).toBe(retryCallSize);
    // 1,000 jobs a record, as calls of 250; the last 600 stop at the call that found fewer (100) than it asked.
    expect(calls).toEqual(Array.from({ length: 11 }, () => 250));
    expect(await queue.getJobCounts('failed', 'wait')).toEqual({ failed: 0, wait: 2600 });
  });
});
