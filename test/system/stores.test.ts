import { afterAll, describe, expect, it } from 'vitest';
import { parseEnvConnections } from '../../server/stores/env-connections.js';
import { LruCache } from '../../server/stores/lru-cache.js';
import { StoreRegistry } from '../../server/stores/store-registry.js';
import { createLogger } from '../../server/logger.js';
import { storeFixture } from '../helpers/stores.js';

describe('environment connections', () => {
  it('reads SERVICE_REDIS_URL_<NAME> with its attributes; ids are the lowercased names', () => {
    const connections = parseEnvConnections({
      SERVICE_REDIS_URL_MAIN: 'redis://:secret@127.0.0.1:6379/1',
      SERVICE_REDIS_URL_MAIN_PREFIX: 'bull,jobs',
      SERVICE_REDIS_URL_MAIN_ENVIRONMENT: 'production',
      SERVICE_REDIS_URL_EDGE_CACHE: 'rediss://edge:6380',
      SERVICE_REDIS_URL_EDGE_CACHE_ALLOW_SELF_SIGNED_CERTS: 'true',
      SERVICE_REDIS_URL_DEFAULT: 'edge_cache',
    });
    expect(connections.map((c) => [c.id, c.environment, c.prefixes, c.isDefault, c.tls, c.source])).toEqual([
      ['edge_cache', 'development', ['bull'], true, { enabled: true, allowSelfSigned: true }, 'env'],
      ['main', 'production', ['bull', 'jobs'], false, { enabled: false, allowSelfSigned: false }, 'env'],
    ]);
  });

  it('makes the first connection the default when none is named', () => {
    const [first, second] = parseEnvConnections({ SERVICE_REDIS_URL_B: 'redis://b', SERVICE_REDIS_URL_A: 'redis://a' });
    expect([first!.id, first!.isDefault, second!.isDefault]).toEqual(['a', true, false]);
  });

  it('rejects an unknown environment naming the variable', () => {
    expect(() =>
      parseEnvConnections({ SERVICE_REDIS_URL_X: 'redis://x', SERVICE_REDIS_URL_X_ENVIRONMENT: 'prod' }),
    ).toThrow(/SERVICE_REDIS_URL_X_ENVIRONMENT/);
  });
});

describe('LruCache', () => {
  it('evicts the least recently used entry past capacity', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(2, (_value, key) => evicted.push(key));
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(evicted).toEqual(['b']);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });
});

describe('StoreRegistry', () => {
  const fixture = storeFixture();
  const registry = new StoreRegistry({ logger: createLogger({ level: 'silent' }), queueCacheSize: 2 });
  afterAll(async () => {
    await registry.closeAll();
    await fixture.cleanup();
  });
  const [connection] = parseEnvConnections({
    SERVICE_REDIS_URL_MAIN: 'redis://127.0.0.1:6379/0',
    SERVICE_REDIS_URL_MAIN_PREFIX: fixture.prefix,
  });

  it('shares one client per connection and bounds the queue handles', async () => {
    const handle = registry.handle(connection!);
    expect(registry.handle(connection!)).toBe(handle);
    const q1 = await handle.queue('q1');
    await q1.add('job', { n: 1 });
    expect(await handle.queue('q1')).toBe(q1);
    await handle.queue('q2');
    await handle.queue('q3');
    // Past the cache size of 2, q1's handle was closed and a new one is made.
    expect(await handle.queue('q1')).not.toBe(q1);
    const keys = await fixture.redis.keys(`${fixture.prefix}:q1:*`);
    expect(keys.length).toBeGreaterThan(0);
  });

  it('makes one handle for a queue asked for by concurrent first calls', async () => {
    const handle = registry.handle(connection!);
    const [first, second] = await Promise.all([handle.queue('fresh'), handle.queue('fresh')]);
    expect(second).toBe(first);
  });

  it('replaces the client when the connection record changes', () => {
    const before = registry.handle(connection!);
    const after = registry.handle({ ...connection!, updatedAt: new Date(connection!.updatedAt.getTime() + 1) });
    expect(after).not.toBe(before);
    expect(after.client).not.toBe(before.client);
  });

  it('fails fast, not hangs, when the store is unreachable', async () => {
    const [down] = parseEnvConnections({ SERVICE_REDIS_URL_DOWN: 'redis://127.0.0.1:1' });
    const started = Date.now();
    await expect((await registry.handle(down!).queue('x')).getJobCounts()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
