import { Queue, Worker } from 'bullmq';
import { beforeAll } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { runBullpen, type CliOptions } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/jobs.js';
import { queueTestBed, type QueueTestBed } from '../../helpers/queues.js';
import type { StoreFixture } from '../../helpers/stores.js';

/**
 * A live server for the `bullpen` CLI files (cli-output, cli-queue-actions,
 * cli-retry-watch): its store's queue `mail outbound` holds three completed
 * and three failed jobs. Exported bindings are live: set once
 * `useSeededServer()`'s beforeAll ran.
 */
let bed: QueueTestBed;
export let store: StoreFixture;
export let app: TestApp;
export const queueName = 'mail outbound';
export let queue: Queue;
export let failedIds: string[];

/** A real Worker completes the even jobs and fails the odd ones (after writing a log line). */
export async function seed(name: string, total: number): Promise<Queue> {
  const seeded = new Queue(name, store.bullmq);
  await seeded.addBulk(Array.from({ length: total }, (_, i) => ({ name: 'send', data: { n: i, fail: i % 2 === 1 } })));
  let settled = 0;
  const worker = new Worker(
    name,
    async (job) => {
      await job.log(`attempt for ${job.data.n}`);
      if (job.data.fail) throw new Error(`smtp refused ${job.data.n}`);
      return { sent: job.data.n };
    },
    { ...store.bullmq, concurrency: 5 },
  );
  worker.on('completed', () => settled++);
  worker.on('failed', () => settled++);
  await waitFor(() => settled === total, 10_000, 'seeded jobs to settle');
  await worker.close();
  return seeded;
}

export const bullpen = (args: string[], options: CliOptions = {}) =>
  runBullpen(args, { ...options, env: { BULLPEN_URL: app.url, ...options.env } });
export const counts = () => queue.getJobCounts('waiting', 'completed', 'failed');

/** A test bed (helpers/queues.ts: the server, queue names never cached) and the queue seeded in it; the bed closes all after the file. */
export function useSeededServer(): void {
  bed = queueTestBed();
  store = bed.fixture;
  beforeAll(async () => {
    app = bed.app;
    queue = await seed(queueName, 6);
    bed.closeLater(queue);
    failedIds = (await queue.getFailed()).map((job) => job.id!).sort();
  });
}
