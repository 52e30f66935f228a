import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { callHistogram, seedFailedJobs } from '../tasks/support/failed-jobs.js';
import { endService, stagePrefix, taskStage } from '../tasks/support/task-stage.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { freePort } from './support/own-redis.js';

const jobs = chaosSize(3000, 20_000);
const maxPerSecond = chaosSize(1000, 2000);
const port = await freePort();

/**
 * Issue 34, item 1: the service is SIGKILLed in the middle of a move task while a Worker on the
 * target runs each moved job and removes it (`removeOnComplete`, inherited from the source job),
 * then a new service process resumes the task. Every job runs exactly once: none twice (the
 * fault run saw 775–941 of 20,000), none lost.
 */
describe(`SIGKILL of the service mid-move (${jobs} jobs, a target Worker with removeOnComplete)`, () => {
  const stage = taskStage(port, 5);

  const scenario = (across: boolean) => async () => {
    const sourceName = across ? 'far-orders' : 'orders';
    const ids = await seedFailedJobs(
      stage.redis,
      stagePrefix,
      sourceName,
      jobs,
      '{"attempts":1,"removeOnComplete":true}',
    );
    const callsKey = `chaos:calls:${sourceName}`;
    const targetConnection = { ...stage.connection, db: across ? 1 : 0 };
    const worker = new Worker('orders-redrive', async (job) => void (await stage.redis.hincrby(callsKey, job.id!, 1)), {
      connection: targetConnection,
      prefix: stagePrefix,
      concurrency: 100,
    });
    worker.on('error', () => undefined);
    const source = new Queue(sourceName, { connection: stage.connection, prefix: stagePrefix });
    const target = new Queue('orders-redrive', { connection: targetConnection, prefix: stagePrefix });
    try {
      const first = await stage.startService();
      const body = {
        to: { queueName: 'orders-redrive', ...(across ? { connectionId: 'other' } : {}) },
        status: 'failed',
        all: true,
        async: true,
        maxPerSecond,
      };
      const accepted = await request(`${first.api}/c/main/queues/${sourceName}/jobs/move`, { method: 'POST', body });
      expect(accepted.status).toBe(202);
      // Killed inside a batch (its scripts of 100 jobs under way) once the worker has run a fifth of the
      // jobs: copies run and removed, the move still going. Late in the move, killed wherever it is.
      const batch = Math.min(1000, maxPerSecond);
      let ranAtKill = 0;
      for (
        const deadline = Date.now() + chaosTimeout() / 2;
        Date.now() < deadline;
        await new Promise((resolve) => setTimeout(resolve, 2))
      ) {
        const [ran, inSource] = [
          await stage.redis.hlen(callsKey),
          await stage.redis.zcard(`${stagePrefix}:${sourceName}:failed`),
        ];
        ranAtKill = ran;
        if (ran >= jobs / 5 && (inSource % batch !== 0 || inSource < jobs * 0.3)) break;
      }
      await endService(first, 'SIGKILL');
      const sourceAtKill = await source.getJobCountByTypes('failed');

      const second = await stage.startService();
      const done = (await waitFor(
        async () => {
          const task = await stage.task(second, accepted.body.taskId);
          return task.state === 'done' ? task : undefined;
        },
        chaosTimeout() / 2,
        'the resumed move to end',
      ))!;
      await waitFor(
        async () => (await target.getJobCountByTypes('waiting', 'active', 'prioritized')) === 0,
        20_000,
        'the worker to run every moved job',
      );

      const histogram = await callHistogram(stage.redis, callsKey);
      const ranTwice = Object.entries(histogram)
        .filter(([calls]) => Number(calls) >= 2)
        .reduce((sum, [, count]) => sum + count, 0);
      const ran = Object.values(histogram).reduce((sum, count) => sum + count, 0);
      const left = await source.getJobCountByTypes('failed', 'waiting', 'completed', 'delayed');
      const lost = jobs - ran - left;
      recordChaosRow({
        scenario: `SIGKILL mid-move ${across ? 'across two stores' : 'within a store'}, ${jobs} jobs, target Worker removeOnComplete`,
        expected: 'processed twice 0, lost 0, moved = jobs',
        observed: `processed twice ${ranTwice}, lost ${lost}, moved ${String(done.result?.moved)} (killed with ${ranAtKill} run, ${sourceAtKill} in source)`,
        held: ranTwice === 0 && lost === 0 && left === 0 && done.result?.moved === jobs,
      });
      expect(histogram).toEqual({ '1': jobs });
      expect(left).toBe(0);
      expect(done.result).toMatchObject({ moved: jobs, refused: 0 });
      expect(await target.getJobCountByTypes('completed')).toBe(0);
      expect(ids).toHaveLength(jobs);
    } finally {
      await worker.close();
      await source.close();
      await target.close();
    }
  };

  it('within one store: runs every job exactly once', { timeout: chaosTimeout() }, scenario(false));
  it('across two stores (the move journal): runs every job exactly once', { timeout: chaosTimeout() }, scenario(true));
});
