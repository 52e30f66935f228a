import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

const connection = { host: '127.0.0.1', port: 6379 };

/**
 * Failures flowing: `perSecond` jobs a second added round-robin to `queueNames` until `total`
 * were added, each failed at once by a real Worker (one attempt, kept in the failed set).
 */
export function failureFlow(prefix: string, queueNames: string[], total: number, perSecond: number) {
  const queues = queueNames.map((name) => new Queue(name, { connection, prefix }));
  const workers = queueNames.map((name) => {
    const worker = new Worker(
      name,
      async () => {
        throw new Error('flowing failure');
      },
      { connection, prefix, concurrency: 20 },
    );
    worker.on('error', () => undefined);
    return worker;
  });
  let added = 0;
  const tickMs = 100;
  const added$ = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const batch = Math.min(total - added, Math.round((perSecond * tickMs) / 1000));
      for (let n = 0; n < batch; n++, added++) void queues[added % queues.length]!.add('flow', { n: added });
      if (added >= total) {
        clearInterval(timer);
        resolve();
      }
    }, tickMs);
  });
  return {
    /** Resolves once every job was added. */
    added: added$,
    /** Jobs in the queues' failed sets now. */
    failed: async (redis: Redis) =>
      (await Promise.all(queueNames.map((name) => redis.zcard(`${prefix}:${name}:failed`)))).reduce((a, b) => a + b, 0),
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
