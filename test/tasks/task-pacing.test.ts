import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryCallSize } from '../../routers/jobs/bulk/retry-calls.js';
import { retryTask } from '../../routers/jobs/retry-task.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { TaskContext } from '../../server/tasks/task-handler.js';
import { jobsPerProgress, RecordGate } from '../../server/tasks/throttle.js';
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

  it('records progress every fifty batches when unthrottled, every batch when throttled', () => {
    expect(jobsPerProgress(null)).toBe(50_000);
    expect(jobsPerProgress(20_000)).toBe(1000);
    expect(jobsPerProgress(300)).toBe(300);
  });

  it('writes every record when throttled; unthrottled at most one per interval, but a first total and a stop at once', () => {
    const throttled = new RecordGate(500, 60_000);
    throttled.recorded(false);
    expect(throttled.due(false, false)).toBe(true);
    const gate = new RecordGate(null, 60_000);
    expect(gate.due(false, false)).toBe(true);
    gate.recorded(false);
    expect(gate.due(false, false)).toBe(false);
    expect(gate.due(true, false)).toBe(true);
    gate.recorded(true);
    expect(gate.due(true, false)).toBe(false);
    expect(gate.due(false, true)).toBe(true);
    const quick = new RecordGate(null, 0);
    quick.recorded(true);
    expect(quick.due(true, false)).toBe(true);
  });

  it('retries a status in script calls of at most 250 jobs, four in flight, progress recorded once per jobsPerProgress', async () => {
    const queue = queues[0]!;
    const calls: number[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const retryFinishedJobs = queue.backend.retryFinishedJobs.bind(queue.backend);
    queue.backend.retryFinishedJobs = async (state, count, timestamp) => {
      calls.push(count ?? 0);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        return await retryFinishedJobs(state, count, timestamp);
      } finally {
        inFlight--;
      }
    };
    const progress: Array<[number, Record<string, unknown> | null]> = [];
    const context: TaskContext = {
      taskId: 't',
      params: { status: 'failed', prefix: fixture.prefix },
      cursor: null,
      queueName: 'paced',
      store: {
        bulkCallsInFlight: 4,
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
    // 1,000 jobs a record, as four calls of 250 sent at once; of the last four, the third finds 100 and the
    // fourth none (already sent), and no call is sent after them.
    expect(calls).toEqual(Array.from({ length: 12 }, () => 250));
    expect(mostInFlight).toBe(4);
    expect(await queue.getJobCounts('failed', 'wait')).toEqual({ failed: 0, wait: 2600 });
  });
});
