import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, type PersistenceKind, type TestApp } from './app.js';
import { storeFixture, type StoreFixture } from './stores.js';

export interface BullmqOptions {
  connection: ConnectionOptions;
  prefix: string;
}

export interface JobMix {
  completed?: number;
  failed?: number;
  waiting?: number;
  delayed?: number;
  prioritized?: number;
}

/**
 * Fills a queue with jobs in real states: a real Worker completes and fails
 * jobs (failing those whose data says so), then stops; waiting, delayed and
 * prioritized jobs are added after it stopped, so they stay where they are.
 */
export async function seedQueue(options: BullmqOptions, name: string, mix: JobMix): Promise<Queue> {
  const queue = new Queue(name, options);
  const processed = (mix.completed ?? 0) + (mix.failed ?? 0);
  if (processed > 0) await runThroughWorker(options, queue, mix.completed ?? 0, mix.failed ?? 0);
  const add = (count: number, opts: object, label: string) =>
    count > 0
      ? queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: `${label}-${i}`, data: {}, opts })))
      : Promise.resolve([]);
  await add(mix.waiting ?? 0, {}, 'waiting');
  await add(mix.delayed ?? 0, { delay: 3_600_000 }, 'delayed');
  await add(mix.prioritized ?? 0, { priority: 5 }, 'prioritized');
  return queue;
}

async function runThroughWorker(
  options: BullmqOptions,
  queue: Queue,
  completed: number,
  failed: number,
): Promise<void> {
  const total = completed + failed;
  let settled = 0;
  let worker: Worker | undefined;
  const done = new Promise<void>((resolve) => {
    worker = new Worker(
      queue.name,
      async (job) => {
        if (job.data.fail) throw new Error('seeded failure');
        return 'ok';
      },
      { ...options, concurrency: 100 },
    );
    const settle = () => ++settled === total && resolve();
    worker.on('completed', settle);
    worker.on('failed', settle);
  });
  for (let start = 0; start < total; start += 1000) {
    const jobs = Array.from({ length: Math.min(1000, total - start) }, (_, i) => ({
      name: 'work',
      data: { fail: start + i >= completed },
    }));
    await queue.addBulk(jobs);
  }
  await done;
  await worker!.close();
}

/**
 * Fails one job per data item through a real Worker (one at a time, so the
 * first item's job fails first and ends oldest in the failed set); answers
 * the job ids in that order.
 */
export async function failJobs(
  options: BullmqOptions,
  queue: Queue,
  items: Array<Record<string, unknown>>,
): Promise<string[]> {
  const before = await queue.getJobCountByTypes('failed');
  const worker = new Worker(
    queue.name,
    async () => {
      throw new Error('seeded failure');
    },
    { ...options, concurrency: 1, autorun: false },
  );
  const added = await queue.addBulk(items.map((data) => ({ name: 'work', data })));
  void worker.run();
  const deadline = Date.now() + 60_000;
  while ((await queue.getJobCountByTypes('failed')) < before + items.length) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the jobs to fail');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await worker.close();
  return added.map((job) => job.id!);
}

export interface QueueTestBed {
  fixture: StoreFixture;
  /** The booted service; set once the file's beforeAll ran. */
  readonly app: TestApp;
  /** A seeded queue, closed after the file. */
  seeded(name: string, mix: JobMix): Promise<Queue>;
  /** A BullMQ Queue on the fixture's store, closed after the file. */
  openQueue(name: string): Queue;
  /** Anything else to close after the file (workers, extra queues). */
  closeLater(closer: { close(): Promise<unknown> }): void;
}

/**
 * One service per test file over a store fixture (connection `main`, queue
 * names never cached: `SERVICE_QUEUE_LIST_CACHE_MS=0` unless `env` says
 * otherwise; embedded persistence unless `options` say `server`), torn down
 * with everything the file seeded.
 */
export function queueTestBed(
  env: Record<string, string> = {},
  options: { persistence?: PersistenceKind } = {},
): QueueTestBed {
  const fixture = storeFixture();
  const closers: Array<{ close(): Promise<unknown> }> = [];
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await bootApp({
      persistence: options.persistence,
      env: { ...fixture.env, SERVICE_QUEUE_LIST_CACHE_MS: '0', ...env },
    });
  });
  afterAll(async () => {
    await Promise.all(closers.map((closer) => closer.close()));
    await app?.close();
    await fixture.cleanup();
  });
  return {
    fixture,
    get app() {
      if (!app) throw new Error('the test bed has not booted yet');
      return app;
    },
    async seeded(name, mix) {
      const queue = await seedQueue(fixture.bullmq, name, mix);
      closers.push(queue);
      return queue;
    },
    openQueue(name) {
      const queue = new Queue(name, fixture.bullmq);
      closers.push(queue);
      return queue;
    },
    closeLater: (closer) => void closers.push(closer),
  };
}
