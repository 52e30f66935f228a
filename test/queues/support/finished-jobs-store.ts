import { FlowProducer, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { StoreFixture } from '../../helpers/stores.js';

// The store test/queues/clean-finished-set.test.ts purges twice: seeded, copied under a second prefix, and snapshotted.

/** Real jobs through a real Worker: plain and logged, deduplicated, and flows (one child failing, ignored). */
export async function seedFinishedJobs(options: StoreFixture['bullmq'], redis: Redis): Promise<void> {
  const queue = new Queue('mix', options);
  const flows = new FlowProducer(options);
  await queue.addBulk(Array.from({ length: 30 }, (_, i) => ({ name: 'plain', data: { i, fail: i % 4 === 0 } })));
  for (let i = 0; i < 4; i++)
    await queue.add('deduplicated', { i, fail: i === 3 }, { deduplication: { id: `dedup-${i}` } });
  const children = [
    ...Array.from({ length: 3 }, (_, i) => ({ name: 'child', queueName: 'mix', data: { i } })),
    { name: 'child', queueName: 'mix', data: { fail: true }, opts: { ignoreDependencyOnFailure: true } },
  ];
  await flows.add({ name: 'parent', queueName: 'mix', data: {}, children });
  await queue.addBulk(Array.from({ length: 12 }, (_, i) => ({ name: 'plain-late', data: { i, fail: i % 5 === 0 } })));
  const total = 30 + 4 + 5 + 12;
  let settled = 0;
  const worker = new Worker(
    'mix',
    async (job) => {
      await job.log(`step of ${job.name}`);
      if (job.data.fail) throw new Error('planned');
      return 'ok';
    },
    { ...options, concurrency: 1 },
  );
  await new Promise<void>((resolve) => {
    const settle = () => ++settled === total && resolve();
    worker.on('completed', settle);
    worker.on('failed', settle);
  });
  await worker.close();
  await flows.close();
  // A deduplication key still pointing at its (completed) job, and one pointing elsewhere: BullMQ removes only the first.
  const dedupJob = (await queue.getCompleted()).find((job) => job.name === 'deduplicated')!;
  await redis.set(`${options.prefix}:mix:de:dedup-${dedupJob.data.i}`, dedupJob.id!);
  await redis.set(`${options.prefix}:mix:dn:dedup-${dedupJob.data.i}`, 'next');
  await redis.set(`${options.prefix}:mix:de:dedup-unrelated`, 'someone-else');
  await queue.close();
}

/**
 * Parents still waiting on a completed child (a state BullMQ's clean handles): one in
 * this queue (removed with its last child) and one in another queue (moved to its wait list).
 */
export async function craftPendingParents(redis: Redis, prefix: string): Promise<void> {
  const plain: string[] = [];
  for (const id of await redis.zrange(`${prefix}:mix:completed`, '0', '-1'))
    if ((await redis.hget(`${prefix}:mix:${id}`, 'name')) === 'plain') plain.push(id);
  const [near, far] = [plain[5]!, plain[9]!];
  const parentIn = async (queue: string, id: string, child: string) => {
    const parentKey = `${prefix}:${queue}:${id}`;
    await redis.hset(parentKey, { name: 'parent', data: '{}', timestamp: '1' });
    await redis.sadd(`${parentKey}:dependencies`, `${prefix}:mix:${child}`);
    await redis.zadd(`${prefix}:${queue}:waiting-children`, '1', id);
    await redis.hset(
      `${prefix}:mix:${child}`,
      'parentKey',
      parentKey,
      'parent',
      JSON.stringify({ id, queueKey: `${prefix}:${queue}` }),
    );
  };
  await redis.hset(`${prefix}:other:meta`, 'opts.maxLenEvents', '10000');
  await parentIn('mix', 'orphaned-parent', near);
  await parentIn('other', 'waiting-parent', far);
}

/** Copies every key under `from` to `to`, with the prefix inside values rewritten too (job keys name their parents). */
export async function copyPrefix(redis: Redis, from: string, to: string): Promise<void> {
  const rename = (text: string) => text.split(`${from}:`).join(`${to}:`);
  for (const key of await keysUnder(redis, from)) {
    const target = rename(key);
    const type = await redis.type(key);
    if (type === 'string') await redis.set(target, rename((await redis.get(key))!));
    if (type === 'hash')
      await redis.hset(
        target,
        Object.fromEntries(Object.entries(await redis.hgetall(key)).map(([field, value]) => [field, rename(value)])),
      );
    if (type === 'list') await redis.rpush(target, ...(await redis.lrange(key, 0, -1)).map(rename));
    if (type === 'set') await redis.sadd(target, ...(await redis.smembers(key)).map(rename));
    if (type === 'zset') {
      const flat = await redis.zrange(key, '0', '-1', 'WITHSCORES');
      await redis.zadd(target, ...flat.flatMap((item, index) => (index % 2 ? [item, rename(flat[index - 1]!)] : [])));
    }
    if (type === 'stream')
      for (const [id, fields] of await redis.xrange(key, '-', '+')) await redis.xadd(target, id, ...fields.map(rename));
  }
}

/** Every key under the prefix (named without it) and its contents; streams as their entries but `cleaned` events, summed apart. */
export async function snapshot(redis: Redis, prefix: string) {
  const strip = (text: string) => text.split(`${prefix}:`).join('');
  const contents: Record<string, unknown> = {};
  let cleaned = 0;
  for (const key of await keysUnder(redis, prefix)) {
    const name = strip(key);
    const type = await redis.type(key);
    if (type === 'string') contents[name] = strip((await redis.get(key))!);
    if (type === 'hash')
      contents[name] = Object.fromEntries(
        Object.entries(await redis.hgetall(key)).map(([field, value]) => [field, strip(value)]),
      );
    if (type === 'list') contents[name] = (await redis.lrange(key, 0, -1)).map(strip);
    if (type === 'set') contents[name] = (await redis.smembers(key)).map(strip).sort();
    if (type === 'zset') contents[name] = (await redis.zrange(key, '0', '-1', 'WITHSCORES')).map(strip);
    if (type === 'stream') {
      const entries = (await redis.xrange(key, '-', '+')).map(([, fields]) => fields.map(strip));
      cleaned += entries
        .filter((fields) => fields[1] === 'cleaned')
        .reduce((sum, fields) => sum + Number(fields[3]), 0);
      contents[name] = entries.filter((fields) => fields[1] !== 'cleaned');
    }
  }
  const finished = (await redis.zcard(`${prefix}:mix:completed`)) + (await redis.zcard(`${prefix}:mix:failed`));
  return { keys: Object.keys(contents).sort(), contents, cleaned, finished };
}

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}
