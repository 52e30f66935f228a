import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { movedJobId } from '../../routers/jobs/move-jobs.js';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { acceptanceTimeoutMs, leaseSeconds } from './support/acceptance-scale.js';
import { seedFailedJobs } from './support/failed-jobs.js';
import { claimsOf, endService, stagePrefix, taskStage } from './support/task-stage.js';

const jobs = 10_000;
const maxPerSecond = 2_000;

/**
 * Issue 19's acceptance: a 10,000-job move whose service is killed (SIGKILL) in the middle of a
 * batch, some jobs already added to the target and not yet removed from the source, then
 * resumed by a new service process on the same database.
 */
describe(`a ${jobs}-job move killed mid-batch and resumed`, () => {
  const stage = taskStage(6431, leaseSeconds);

  it('leaves every job exactly once in the target, with its data, and none in the source', {
    timeout: acceptanceTimeoutMs,
  }, async () => {
    const ids = await seedFailedJobs(stage.redis, stagePrefix, 'orders', jobs);
    const source = new Queue('orders', { connection: stage.connection, prefix: stagePrefix });
    const target = new Queue('orders-redrive', { connection: stage.connection, prefix: stagePrefix });
    try {
      const first = await stage.startService();
      const body = { to: { queueName: 'orders-redrive' }, status: 'failed', all: true, async: true, maxPerSecond };
      const accepted = await request(`${first.api}/c/main/queues/orders/jobs/move`, { method: 'POST', body });
      expect(accepted.status).toBe(202);
      const taskId: string = accepted.body.taskId;
      // Kill inside a batch of 1,000: the target holds a count that is not a whole number of batches.
      const targetWaiting = () => stage.redis.llen(`${stagePrefix}:orders-redrive:wait`);
      const killedWith = await waitFor(
        async () => {
          const added = await targetWaiting();
          return added >= jobs * 0.3 && added % 1000 >= 50 && added % 1000 <= 950 ? added : undefined;
        },
        120_000,
        'the move to be inside a batch',
      );
      await endService(first, 'SIGKILL');
      const [sourceLeft, targetHeld] = [await source.getJobCountByTypes('failed'), await targetWaiting()];
      expect(sourceLeft + targetHeld).toBeGreaterThanOrEqual(jobs);

      const second = await stage.startService();
      const done = (await waitFor(
        async () => {
          const task = await stage.task(second, taskId);
          return task.state === 'done' ? task : undefined;
        },
        acceptanceTimeoutMs - 60_000,
        'the move to end',
      ))!;
      expect(claimsOf(second).filter((claim) => claim.taskId === taskId)).toHaveLength(1);

      expect(await source.getJobCounts('failed', 'wait', 'completed', 'delayed')).toEqual({
        failed: 0,
        wait: 0,
        completed: 0,
        delayed: 0,
      });
      expect(await stage.redis.zcard(`${stagePrefix}:orders:failed`)).toBe(0);
      const waiting = await stage.redis.lrange(`${stagePrefix}:orders-redrive:wait`, 0, -1);
      expect(waiting).toHaveLength(jobs);
      expect(new Set(waiting).size).toBe(jobs);
      expect([...waiting].sort()).toEqual(ids.map((id) => movedJobId('orders', id)).sort());
      const sample = await target.getJob(movedJobId('orders', ids[4321]!));
      expect(sample?.data).toEqual({ n: Number(ids[4321]) });
      console.log(
        JSON.stringify({
          moveAcceptance: {
            jobs,
            maxPerSecond,
            killedWithInTarget: killedWith,
            sourceLeftAtKill: sourceLeft,
            seconds: (Date.parse(done.finishedAt!) - Date.parse(done.startedAt!)) / 1000,
            result: done.result,
          },
        }),
      );
    } finally {
      await source.close();
      await target.close();
    }
  });
});
