import { Queue } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, type TestApp } from '../../helpers/app.js';
import { deleteKeysMatching, storeFixture, uniquePrefix, type StoreFixture } from '../../helpers/stores.js';

/**
 * The service over a store fixture holding one key of each type under the
 * namespace `ns` (JSON and plain strings, a 300 kB string, a key with odd
 * characters, a hash, lists, a sorted set, a stream and a 100k-member set),
 * a queue `kept`, a key beside the queue keys and two reserved keys. The
 * store-key files (search and delete, value reads) share it. Exported
 * bindings are live: set once `useSeededKeys()`'s beforeAll ran.
 */
// Made in the beforeAll: with the suite's shared workers (isolate: false) this module outlives one test file.
export let fixture: StoreFixture;
export const ns = uniquePrefix('keys');
export const oddKey = `${ns}:odd/key with space%20and %`;
export const bigSetSize = 100_000;
export let app: TestApp;
export let base: string;
let queue: Queue;
export const valueUrl = (key: string, query = '') => `${base}/value/${encodeURIComponent(key)}${query}`;

/** Boots the service and seeds the keys before the file's tests; removes both after. */
export function useSeededKeys(): void {
  beforeAll(async () => {
    fixture = storeFixture();
    queue = new Queue('kept', fixture.bullmq);
    app = await bootApp({ env: fixture.env });
    base = `${app.api}/c/${fixture.connectionId}/store-keys`;
    const redis = fixture.redis;
    await queue.add('job', {});
    await redis.set(`${ns}:json`, JSON.stringify({ a: 1, b: [true, null] }));
    await redis.set(`${ns}:text`, 'hello world', 'EX', 3600);
    await redis.set(`${ns}:big-string`, 'x'.repeat(300_000));
    await redis.set(oddKey, 'odd');
    await redis.hset(`${ns}:hash`, 'f1', 'v1', 'f2', 'v2', 'f3', 'v3');
    await redis.rpush(`${ns}:list`, 'l0', 'l1', 'l2', 'l3', 'l4');
    await redis.rpush(`${ns}:fat-list`, 'y'.repeat(600), 'y'.repeat(600), 'y'.repeat(600));
    await redis.zadd(`${ns}:zset`, 1.5, 'low', 10, 'high');
    await redis.xadd(`${ns}:stream`, '1-1', 'event', 'created', 'id', '7');
    await redis.xadd(`${ns}:stream`, '2-1', 'event', 'deleted');
    for (let start = 0; start < bigSetSize; start += 10_000) {
      await redis.sadd(`${ns}:big-set`, ...Array.from({ length: 10_000 }, (_, index) => `m${start + index}`));
    }
    await redis.set(`${fixture.prefix}-not-a-queue-key`, '1');
    await redis.set(`bull:${ns}`, 'reserved');
    await redis.set(`bullmq:${ns}`, 'reserved');
  });
  afterAll(async () => {
    await queue.close();
    await deleteKeysMatching(fixture.redis, `${ns}*`);
    await fixture.redis.del(`bull:${ns}`, `bullmq:${ns}`, `${fixture.prefix}-not-a-queue-key`);
    await app.close();
    await fixture.cleanup();
  });
}
