import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

export interface BenchConnection {
  host: string;
  port: number;
}

export const prefix = 'bench';
export const templateQueue = 'template';
const templateCount = 100;

/**
 * Seeding 1M finished jobs through a Worker would take minutes here (~6k
 * jobs/s). So a real Worker completes and fails `templateCount` real jobs, and
 * the bulk is cloned from those: COPY of each job hash plus ZADD into the
 * status set, pipelined. The result is BullMQ's own layout, job for job.
 */
export async function seedTemplates(connection: BenchConnection): Promise<void> {
  const queue = new Queue(templateQueue, { connection, prefix });
  await queue.addBulk(
    Array.from({ length: templateCount * 2 }, (_, index) => ({
      name: 'invoice',
      data: {
        fail: index >= templateCount,
        customer: { id: `customer-${index % templateCount}`, tier: 'gold' },
        lines: [{ sku: 'A1', qty: 2 }],
      },
    })),
  );
  let finished = 0;
  const worker = new Worker(
    templateQueue,
    async (job) => {
      if (job.data.fail) throw new Error(`card declined for ${job.data.customer.id}`);
      return { charged: true };
    },
    { connection: { ...connection, maxRetriesPerRequest: null }, prefix, concurrency: 50 },
  );
  worker.on('completed', () => finished++);
  worker.on('failed', () => finished++);
  while (finished < templateCount * 2) await new Promise((resolve) => setTimeout(resolve, 20));
  await worker.close();
  await queue.close();
}

/** Clones `count` finished jobs of `status` into `queueName` (ids `from`..), 5,000 per round trip. */
export async function cloneFinishedJobs(
  redis: Redis,
  queueName: string,
  status: 'completed' | 'failed',
  count: number,
  from = 1,
): Promise<void> {
  const templateIds = status === 'completed' ? range(1, templateCount) : range(templateCount + 1, templateCount * 2);
  const now = Date.now();
  for (let start = 0; start < count; start += 5000) {
    const pipeline = redis.pipeline();
    const scored: Array<number | string> = [];
    for (let offset = start; offset < Math.min(count, start + 5000); offset++) {
      const id = from + offset;
      pipeline.copy(
        `${prefix}:${templateQueue}:${templateIds[offset % templateIds.length]!}`,
        `${prefix}:${queueName}:${id}`,
        'REPLACE',
      );
      scored.push(now - count + offset, String(id));
    }
    // One variadic ZADD per batch: far cheaper than one ZADD per job.
    pipeline.zadd(`${prefix}:${queueName}:${status}`, ...scored);
    await pipeline.exec();
  }
  await redis.set(`${prefix}:${queueName}:id`, String(from + count));
}

/** A real queue with a few jobs in the live states, so its meta and keys exist as BullMQ makes them. */
export async function seedLiveJobs(connection: BenchConnection, queueName: string): Promise<void> {
  const queue = new Queue(queueName, { connection, prefix });
  await queue.addBulk([
    { name: 'w1', data: { n: 1 } },
    { name: 'w2', data: { n: 2 } },
    { name: 'd1', data: { n: 3 }, opts: { delay: 3_600_000 } },
    { name: 'p1', data: { n: 4 }, opts: { priority: 5 } },
  ]);
  await queue.close();
}

/** 1,000 queues with jobs in every state: waiting, delayed, prioritized (real adds), completed and failed (clones). */
export async function seedManyQueues(connection: BenchConnection, redis: Redis, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, index) => `orders-${String(index).padStart(4, '0')}`);
  for (const name of names) {
    await seedLiveJobs(connection, name);
    await cloneFinishedJobs(redis, name, 'completed', 5, 100);
    await cloneFinishedJobs(redis, name, 'failed', 3, 200);
  }
  return names;
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}
