import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { waitFor } from '../../helpers/jobs.js';

export interface SeededStore {
  queueName: string;
  pausedQueueName: string;
  completedJobId: string;
  failedJobId: string;
  waitingJobId: string;
  schedulerId: string;
  /** Plain keys outside the queue library's prefix, one per Redis type. */
  plainKeys: string[];
}

/**
 * Fills a store with what the routes read: a queue with completed (logged),
 * failed (stack trace), waiting, delayed and prioritized jobs and a
 * scheduler; a paused queue; and plain keys of every type.
 */
export async function seedStore(
  connection: ConnectionOptions & { host: string; port: number; password?: string },
): Promise<SeededStore> {
  const queueName = 'orders';
  const queue = new Queue(queueName, { connection });
  const completed = await queue.add('ship', { order: 1, note: 'fragile' });
  const failed = await queue.add('charge', { order: 2 }, { attempts: 1 });
  const worker = new Worker(
    queueName,
    async (job) => {
      await job.log(`processing ${job.name}`);
      if (job.name === 'charge') throw new Error('card declined');
      return { shipped: true };
    },
    { connection },
  );
  await waitFor(
    async () =>
      (await queue.getJobCounts('completed', 'failed')).failed === 1 &&
      (await queue.getJobState(completed.id!)) === 'completed',
    10_000,
    'seed jobs to finish',
  );
  await worker.close();
  const waiting = await queue.add('ship', { order: 3 });
  await queue.add('later', { order: 4 }, { delay: 3_600_000 });
  await queue.add('urgent', { order: 5 }, { priority: 3 });
  const schedulerId = 'hourly-report';
  await queue.upsertJobScheduler(schedulerId, { every: 3_600_000 }, { name: 'report' });
  await queue.close();

  const pausedQueueName = 'paused queue/with odd%name';
  const paused = new Queue(pausedQueueName, { connection });
  await paused.add('held', { order: 6 });
  await paused.pause();
  await paused.close();

  const redis = new Redis(connection);
  const plainKeys = ['plain:string', 'plain:hash', 'plain:list', 'plain:set', 'plain:zset', 'plain:stream'];
  await redis
    .multi()
    .set(plainKeys[0]!, 'value')
    .hset(plainKeys[1]!, { field: 'value', other: '2' })
    .rpush(plainKeys[2]!, 'a', 'b', 'c')
    .sadd(plainKeys[3]!, 'a', 'b')
    .zadd(plainKeys[4]!, 1, 'a', 2, 'b')
    .xadd(plainKeys[5]!, '*', 'field', 'value')
    .exec();
  redis.disconnect();
  return {
    queueName,
    pausedQueueName,
    completedJobId: completed.id!,
    failedJobId: failed.id!,
    waitingJobId: waiting.id!,
    schedulerId,
    plainKeys,
  };
}
