import { Worker, createPostgresBackend, type Job } from 'bullmq';
import type { PostgresBed } from '../../helpers/postgres-bed.js';

/**
 * Adds `jobs` to a queue of the bed's database and runs them through a real
 * BullMQ Worker on createPostgresBackend until `settles` of them settled
 * (completed, or failed for good), then closes it.
 */
export async function runPostgresWorker(
  bed: PostgresBed,
  queueName: string,
  jobs: Array<{ name: string; data: object; opts?: object }>,
  processor: (job: Job) => Promise<unknown>,
  options: { concurrency?: number; settles?: number } = {},
): Promise<void> {
  const queue = bed.fixture.queue(queueName);
  const expected = options.settles ?? jobs.length;
  let settled = 0;
  let worker: Worker | undefined;
  const done = new Promise<void>((resolve) => {
    const settle = () => ++settled === expected && resolve();
    worker = new Worker(
      queueName,
      processor,
      { ...bed.fixture.bullmq, concurrency: options.concurrency ?? 1 },
      createPostgresBackend as never,
    ) as Worker;
    worker.on('completed', settle);
    worker.on('failed', (job) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) settle();
    });
  });
  await queue.addBulk(jobs);
  await done;
  await worker!.close();
}
