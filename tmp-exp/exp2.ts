import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedis } from '../test/bench/redis-server.js';
import { seedTemplates } from '../test/bench/seed.js';
import { floorRetry, floorPurge } from '../test/bench/scenarios/bulk-floor.js';
import { seedBulkQueue, bulkQueue } from '../test/bench/scenarios/bulk.js';
import { retryInCalls } from '../routers/jobs/bulk/retry-calls.js';
import { cleanFinishedSet } from '../server/bullmq/clean-finished-set.js';
async function usedCpu(redis: Redis) {
  const i = await redis.info('cpu');
  return Number(/used_cpu_user:(\S+)/.exec(i)![1]) + Number(/used_cpu_sys:(\S+)/.exec(i)![1]);
}
async function main() {
  const r = await startRedis(6700);
  const redis = new Redis({ port: 6700 });
  const c = { host: '127.0.0.1', port: 6700 };
  await seedTemplates(c);
  const N = Number(process.argv[2] ?? 100000);
  const q = new Queue(bulkQueue, { connection: c, prefix: 'bench' });
  const measure = async (name: string, fn: () => Promise<unknown>) => {
    await seedBulkQueue(redis, c, N);
    const cpu0 = await usedCpu(redis);
    const t = performance.now();
    await fn();
    const ms = performance.now() - t;
    const cpu = (await usedCpu(redis)) - cpu0;
    const left = await redis.zcard('bench:bulk:failed');
    console.log(
      name.padEnd(14),
      'wall/s',
      Math.round((N * 1000) / ms),
      'redis cpu µs/job',
      ((cpu * 1e6) / N).toFixed(2),
      'left',
      left,
    );
  };
  for (let round = 0; round < 2; round++) {
    await measure('floor-retry', () => floorRetry(redis, bulkQueue, 'failed'));
    await measure('bullmq-250', () => retryInCalls(q, 'failed', Date.now(), N + 1000, 250));
    await measure('bullmq-1000', () => retryInCalls(q, 'failed', Date.now(), N + 1000, 1000));
    await measure('floor-purge', () => floorPurge(redis, bulkQueue));
    await measure('clean-250', async () => {
      while ((await cleanFinishedSet(redis as never, q, { prefix: 'bench', name: bulkQueue }, 'failed', 250)).length);
    });
  }
  await q.close();
  redis.disconnect();
  await r.stop();
}
main();
