import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const redisUrl = 'redis://127.0.0.1:6379';

/** A key prefix no other test uses: queues under it are this test's alone, so counts are exact. */
export function uniquePrefix(label = 't'): string {
  return `${label}${randomBytes(4).toString('hex')}`;
}

export interface StoreFixture {
  prefix: string;
  connectionId: string;
  /** Environment that makes the service expose this store as connection `connectionId`. */
  env: Record<string, string>;
  /** Options for BullMQ Queue/Worker/FlowProducer in the test itself. */
  bullmq: { connection: { host: string; port: number; db: number }; prefix: string };
  redis: Redis;
  /** Deletes every key under the prefix and closes the test's client. */
  cleanup(): Promise<void>;
}

/** A store on the loopback Redis, exposed to the service as an environment connection. */
export function storeFixture(options: { db?: number; name?: string } = {}): StoreFixture {
  const db = options.db ?? 0;
  const prefix = uniquePrefix();
  const name = (options.name ?? 'main').toUpperCase();
  const redis = new Redis({ host: '127.0.0.1', port: 6379, db, lazyConnect: true });
  return {
    prefix,
    connectionId: name.toLowerCase(),
    env: {
      SERVICE_AUTHLESS: 'true',
      SERVICE_ENV_CONNECTIONS: 'true',
      [`SERVICE_REDIS_URL_${name}`]: `${redisUrl}/${db}`,
      [`SERVICE_REDIS_URL_${name}_PREFIX`]: prefix,
    },
    bullmq: { connection: { host: '127.0.0.1', port: 6379, db }, prefix },
    redis,
    async cleanup() {
      await deleteKeysMatching(redis, `${prefix}:*`);
      redis.disconnect();
    },
  };
}

export async function deleteKeysMatching(redis: Redis, pattern: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
