import { Queue, Worker, createPostgresBackend } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { chaosSize } from '../chaos/support/chaos-size.js';
import { seedFailedJobs } from '../tasks/support/failed-jobs.js';
import { moveStage } from './support/move-stage.js';

/** 3,000 jobs at 500/s in `npm run chaos`, as the fault run had them; 1,000 at 200/s in `npm test`. */
const jobs = chaosSize(1000, 3000);
const maxPerSecond = chaosSize(200, 500);

/**
 * Issue 31 item 4: a move task between a Redis queue and a PostgreSQL one is SIGKILLed in the
 * middle (copies delivered, some already run and removed by a Worker on the target with
 * removeOnComplete, the source not yet released), then a new service process resumes it. Every
 * job ends in exactly one place and runs exactly once: none doubled, none lost.
 */
describe(`SIGKILL of the service mid-move between Redis and PostgreSQL (${jobs} jobs, a target Worker)`, () => {
  const stage = moveStage();

  const scenario = (fromPostgres: boolean) => async () => {
    const [sourceConnection, targetConnection] = fromPostgres ? ['pg', 'main'] : ['main', 'pg'];
    const sourceName = fromPostgres ? 'pg-orders' : 'orders';
    const targetName = `${sourceName}-moved`;
    const status = fromPostgres ? 'waiting' : 'failed';
    const source = fromPostgres ? stage.pg.queue(sourceName) : new Queue(sourceName, stage.redis.bullmq);
    if (fromPostgres)
      for (let added = 0; added < jobs; added += 1000)
        await source.addBulk(
          Array.from({ length: 1000 }, (_, n) => ({
            name: 'work',
            data: { n: added + n },
            opts: { removeOnComplete: true },
          })),
        );
    else await seedFailedJobs(stage.redis.redis, stage.redis.prefix, sourceName, jobs, '{"removeOnComplete":true}');
    const calls = new Map<string, number>();
    const count = async (job: { id?: string }) => void calls.set(job.id!, (calls.get(job.id!) ?? 0) + 1);
    const worker = fromPostgres
      ? new Worker(targetName, count, { ...stage.redis.bullmq, concurrency: 50 })
      : new Worker(targetName, count, { ...stage.pg.bullmq, concurrency: 50 }, createPostgresBackend);
    worker.on('error', () => undefined);
    try {
      const first = await stage.startService();
      const accepted = await request(`${first.api}/c/${sourceConnection}/queues/${sourceName}/jobs/move`, {
        method: 'POST',
        body: {
          to: { connectionId: targetConnection, queueName: targetName },
          status,
          all: true,
          async: true,
          maxPerSecond,
        },
      });
      expect(accepted.status).toBe(202);
      // Killed once the worker ran a fifth of the jobs, with the source not at a batch boundary (a batch under way).
      const inSource = () => source.getJobCountByTypes(status);
      await waitFor(
        async () => calls.size >= jobs / 5 && (await inSource()) % maxPerSecond !== 0,
        30_000,
        'the move to be under way',
      );
      first.child.kill('SIGKILL');
      await first.exited;
      const atKill = { ran: calls.size, inSource: await inSource() };
      expect(atKill.inSource).toBeGreaterThan(0);

      const second = await stage.startService();
      const done = await waitFor(
        async () => {
          const task = await stage.task(second, sourceConnection, accepted.body.taskId);
          return task.state === 'done' ? task : undefined;
        },
        40_000,
        'the resumed move to end',
      );
      // A lost job never runs: the wait ends at the deadline and the histogram below says what ran.
      await waitFor(() => calls.size >= jobs, 20_000, 'the worker to run every moved job').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const histogram: Record<string, number> = {};
      for (const times of calls.values()) histogram[times] = (histogram[times] ?? 0) + 1;
      const left = await source.getJobCountByTypes('waiting', 'failed', 'delayed', 'completed', 'prioritized');
      console.log(
        JSON.stringify({ pgMoveSigkill: { fromPostgres, jobs, atKill, histogram, left, result: done?.result } }),
      );
      expect(histogram).toEqual({ '1': jobs });
      expect(left).toBe(0);
      expect(done?.result).toMatchObject({ moved: jobs, refused: 0 });
    } finally {
      await worker.close();
      await source.close();
    }
  };

  it('Redis → PostgreSQL: every job runs exactly once, none stays behind', { timeout: 120_000 }, scenario(false));
  it('PostgreSQL → Redis: every job runs exactly once, none stays behind', { timeout: 120_000 }, scenario(true));
});
