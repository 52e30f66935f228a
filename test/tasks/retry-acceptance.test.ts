import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import { acceptanceTimeoutMs, leaseSeconds, retryScale } from './support/acceptance-scale.js';
import { callHistogram, countingWorker, seedFailedJobs } from './support/failed-jobs.js';
import { claimsOf, endService, stagePrefix, taskStage } from './support/task-stage.js';

const { jobs, maxPerSecond } = retryScale;
const queueName = 'retry-acceptance';
const callsKey = 'acceptance:calls';

/**
 * Issue 19's acceptance: a throttled retry task survives its service being stopped (SIGTERM)
 * and killed (SIGKILL) mid-way, each time resumed by a new service process on the same
 * database, and retries every job exactly once, as a counting Worker proves (see failed-jobs.ts).
 */
describe(`a ${jobs}-job retry task at ${maxPerSecond}/s across a SIGTERM and a SIGKILL of its service`, () => {
  const stage = taskStage(6430, leaseSeconds);
  const failedRow = async (taskId: string) =>
    (
      await queryDatabase<{ state: string; processed: string; lease_holder: string | null }>(
        stage.databaseUrl,
        'select state, processed, lease_holder from task where id = $1',
        [taskId],
      )
    )[0]!;

  it('takes jobs / maxPerSecond seconds at least and retries every job exactly once', {
    timeout: acceptanceTimeoutMs,
  }, async () => {
    await seedFailedJobs(stage.redis, stagePrefix, queueName, jobs);
    const worker = countingWorker(stage.connection, stage.redis, stagePrefix, queueName, callsKey);
    const queue = new Queue(queueName, { connection: stage.connection, prefix: stagePrefix });
    try {
      const first = await stage.startService();
      const accepted = await request(`${first.api}/c/main/queues/${queueName}/jobs/retry`, {
        method: 'POST',
        body: { status: 'failed', all: true, async: true, maxPerSecond },
      });
      expect(accepted.status).toBe(202);
      const taskId: string = accepted.body.taskId;
      const reached = (service: typeof first, share: number) =>
        waitFor(
          async () => (await stage.task(service, taskId)).processed >= jobs * share,
          120_000,
          `${share * 100} % retried`,
        );

      await reached(first, 0.25);
      const stoppedAt = Date.now();
      await endService(first, 'SIGTERM');
      // A graceful stop lets go of the lease, so the next service resumes at once.
      const stopped = await failedRow(taskId);
      expect(stopped).toMatchObject({ state: 'running', lease_holder: null });
      expect(Number(stopped.processed)).toBeLessThan(jobs);

      const second = await stage.startService();
      await reached(second, 0.6);
      const killedAt = Date.now();
      await endService(second, 'SIGKILL');
      const third = await stage.startService();
      const done = (await waitFor(
        async () => {
          const task = await stage.task(third, taskId);
          return task.state === 'done' ? task : undefined;
        },
        300_000,
        'the task to end',
      ))!;

      const claims = [first, second, third].map((service) =>
        claimsOf(service).filter((claim) => claim.taskId === taskId),
      );
      expect(claims.map((claimed) => claimed.length)).toEqual([1, 1, 1]);
      const [claimedFirst, claimedSecond, claimedThird] = [claims[0]![0]!, claims[1]![0]!, claims[2]![0]!];
      const takeoverMs = claimedThird.time - killedAt;
      expect(takeoverMs).toBeLessThan(120_000);
      expect(done).toMatchObject({ processed: jobs, total: jobs, result: { retried: jobs } });
      const seconds = (Date.parse(done.finishedAt!) - Date.parse(done.startedAt!)) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(jobs / maxPerSecond);
      const runningSeconds =
        (stoppedAt -
          claimedFirst.time +
          killedAt -
          claimedSecond.time +
          Date.parse(done.finishedAt!) -
          claimedThird.time) /
        1000;

      // Every retried job runs once more in the worker and fails again: none may be left, none retried twice.
      await waitFor(
        async () => {
          const counts = await queue.getJobCounts('wait', 'active', 'failed');
          return counts.wait === 0 && counts.active === 0 && counts.failed === jobs;
        },
        acceptanceTimeoutMs - 60_000,
        'the worker to fail every retried job again',
      );
      expect(await callHistogram(stage.redis, callsKey)).toEqual({ 1: jobs });
      console.log(
        JSON.stringify({
          retryAcceptance: {
            jobs,
            maxPerSecond,
            seconds,
            runningSeconds,
            jobsPerRunningSecond: Math.round(jobs / runningSeconds),
            takeoverMs,
            leaseSeconds: leaseSeconds ?? 60,
          },
        }),
      );
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
