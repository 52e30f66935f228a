import { Queue, Worker, type ConnectionOptions } from 'bullmq';

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
    count > 0 ? queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: `${label}-${i}`, data: {}, opts }))) : Promise.resolve([]);
  await add(mix.waiting ?? 0, {}, 'waiting');
  await add(mix.delayed ?? 0, { delay: 3_600_000 }, 'delayed');
  await add(mix.prioritized ?? 0, { priority: 5 }, 'prioritized');
  return queue;
}

async function runThroughWorker(options: BullmqOptions, queue: Queue, completed: number, failed: number): Promise<void> {
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
    const jobs = Array.from({ length: Math.min(1000, total - start) }, (_, i) => ({ name: 'work', data: { fail: start + i >= completed } }));
    await queue.addBulk(jobs);
  }
  await done;
  await worker!.close();
}
