import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedis } from '../test/bench/redis-server.js';
import { seedTemplates, cloneFinishedJobs } from '../test/bench/seed.js';
import { floorRetry } from '../test/bench/scenarios/bulk-floor.js';
async function main() {
  const r = await startRedis(6700);
  const redis = new Redis({ port: 6700 });
  const c = { host: '127.0.0.1', port: 6700 };
  await seedTemplates(c);
  const N = Number(process.argv[2] ?? 100000);
  const q = new Queue('x', { connection: c, prefix: 'bench' });
  for (let round = 0; round < 3; round++) {
    await redis.del('bench:x:wait');
    await cloneFinishedJobs(redis, 'x', 'failed', N, 1);
    let t = performance.now();
    await floorRetry(redis, 'x', 'failed');
    const f = performance.now() - t;
    await redis.del('bench:x:wait');
    await cloneFinishedJobs(redis, 'x', 'failed', N, 1);
    t = performance.now();
    const before = Date.now();
    while ((await q.backend.retryFinishedJobs('failed', 1000, before)) !== 0);
    const b = performance.now() - t;
    console.log('floor', Math.round((N * 1000) / f), 'bullmq', Math.round((N * 1000) / b), (f / b).toFixed(2));
  }
  await q.close();
  redis.disconnect();
  await r.stop();
}
main();
