import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReservedKey } from '../../routers/store-keys/reserved-prefixes.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { deleteKeysMatching, storeFixture, uniquePrefix } from '../helpers/stores.js';

describe('reserved key prefixes', () => {
  it('covers bull:, bullmq: and the connection prefixes, nothing else', () => {
    const prefixes = ['bull:', 'bullmq:', 'jobs:'];
    expect(['bull:q:1', 'bullmq:x', 'jobs:q:meta'].every((key) => isReservedKey(key, prefixes))).toBe(true);
    expect(['bullish', 'bull', 'job:x', 'x:bull:y'].some((key) => isReservedKey(key, prefixes))).toBe(false);
  });
});

describe('store keys', () => {
  const fixture = storeFixture();
  const ns = uniquePrefix('keys');
  const oddKey = `${ns}:odd/key with space%20and %`;
  const bigSetSize = 100_000;
  let app: TestApp;
  let base: string;
  const queue = new Queue('kept', fixture.bullmq);
  const valueUrl = (key: string, query = '') => `${base}/value/${encodeURIComponent(key)}${query}`;

  beforeAll(async () => {
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

  async function searchAll(query: string): Promise<any[]> {
    const keys: any[] = [];
    let cursor = '0';
    for (let page = 0; page < 1000; page++) {
      const { status, body } = await request(`${base}/search?${query}&cursor=${encodeURIComponent(cursor)}`);
      expect(status).toBe(200);
      keys.push(...body.keys);
      cursor = body.cursor;
      if (body.done) {
        expect(cursor).toBe('0');
        return keys;
      }
    }
    throw new Error('search never finished');
  }

  it('finds keys with SCAN across pages, with type, TTL and memory', async () => {
    const keys = await searchAll(`pattern=${encodeURIComponent(`${ns}:*`)}&count=3`);
    const byKey = new Map(keys.map((key) => [key.key, key]));
    expect([...byKey.keys()].sort()).toEqual(
      [`${ns}:json`, `${ns}:text`, `${ns}:big-string`, oddKey, `${ns}:hash`, `${ns}:list`, `${ns}:fat-list`, `${ns}:zset`, `${ns}:stream`, `${ns}:big-set`].sort(),
    );
    expect(byKey.get(`${ns}:hash`)).toMatchObject({ type: 'hash', ttl: -1 });
    expect(byKey.get(`${ns}:text`).ttl).toBeGreaterThan(3500);
    expect(byKey.get(`${ns}:big-string`).memoryBytes).toBeGreaterThan(300_000);
  });

  it('filters by type', async () => {
    const keys = await searchAll(`pattern=${encodeURIComponent(`${ns}:*`)}&type=zset`);
    expect(keys.map((key) => key.key)).toEqual([`${ns}:zset`]);
  });

  it('leaves queue keys out with excludeQueueKeys=true', async () => {
    const pattern = encodeURIComponent(`${fixture.prefix}*`);
    const all = await searchAll(`pattern=${pattern}`);
    expect(all.some((key) => key.key === `${fixture.prefix}:kept:meta`)).toBe(true);
    const excluded = await searchAll(`pattern=${pattern}&excludeQueueKeys=true`);
    expect(excluded.map((key) => key.key)).toEqual([`${fixture.prefix}-not-a-queue-key`]);
  });

  it.each([
    ['count=0', 'count'],
    ['count=1001', 'count'],
    ['cursor=abc', 'cursor'],
    ['type=blob', 'type'],
    ['excludeQueueKeys=perhaps', 'excludeQueueKeys'],
  ])('answers search?%s with 400 naming %s', async (query, parameter) => {
    const { status, body } = await request(`${base}/search?${query}`);
    expect(status).toBe(400);
    expect(body.message).toContain(parameter);
  });

  it('reads strings: JSON parsed, text as is, big ones cut at maxBytes', async () => {
    expect((await request(valueUrl(`${ns}:json`))).body).toEqual({
      key: `${ns}:json`, type: 'string', ttl: -1, size: 23, value: { a: 1, b: [true, null] }, offset: 0, nextOffset: null, nextCursor: null, truncated: false,
    });
    const text = (await request(valueUrl(`${ns}:text`))).body;
    expect(text).toMatchObject({ value: 'hello world', size: 11, truncated: false });
    expect(text.ttl).toBeGreaterThan(3500);
    const big = (await request(valueUrl(`${ns}:big-string`, '?maxBytes=2048'))).body;
    expect(big).toMatchObject({ size: 300_000, truncated: true });
    expect(big.value).toBe('x'.repeat(2048));
  });

  it('reads hashes, lists, sets, sorted sets with scores and streams, paged', async () => {
    expect((await request(valueUrl(`${ns}:hash`))).body).toMatchObject({
      type: 'hash', size: 3, value: [{ field: 'f1', value: 'v1' }, { field: 'f2', value: 'v2' }, { field: 'f3', value: 'v3' }], truncated: false, nextOffset: null,
    });
    expect((await request(valueUrl(`${ns}:hash`, '?offset=1&limit=1'))).body).toMatchObject({ value: [{ field: 'f2', value: 'v2' }], nextOffset: 2, truncated: true });
    expect((await request(valueUrl(`${ns}:list`, '?offset=1&limit=2'))).body).toMatchObject({ type: 'list', size: 5, value: ['l1', 'l2'], offset: 1, nextOffset: 3, truncated: true });
    expect((await request(valueUrl(`${ns}:zset`))).body).toMatchObject({ type: 'zset', size: 2, value: [{ member: 'low', score: 1.5 }, { member: 'high', score: 10 }] });
    expect((await request(valueUrl(`${ns}:stream`))).body).toMatchObject({
      type: 'stream', size: 2, value: [{ id: '1-1', fields: { event: 'created', id: '7' } }, { id: '2-1', fields: { event: 'deleted' } }],
    });
    expect((await request(valueUrl(`${ns}:stream`, '?offset=1'))).body.value).toEqual([{ id: '2-1', fields: { event: 'deleted' } }]);
  });

  it('ends a page early at maxBytes and says where to continue', async () => {
    const { body } = await request(valueUrl(`${ns}:fat-list`, '?maxBytes=1024'));
    expect(body.value).toHaveLength(1);
    expect(body).toMatchObject({ nextOffset: 1, truncated: true, size: 3 });
  });

  it('walks a 100k-member set by cursor: every member, cheap pages', async () => {
    const seen = new Set<string>();
    let cursor: string | null = '0';
    let pages = 0;
    while (cursor !== null && pages < 500) {
      const { status, body } = await request(valueUrl(`${ns}:big-set`, `?cursor=${cursor}&limit=1000`));
      expect(status).toBe(200);
      expect(body.size).toBe(bigSetSize);
      for (const member of body.value) seen.add(member);
      cursor = body.nextCursor;
      pages++;
    }
    expect(seen.size).toBe(bigSetSize);
    expect(pages).toBeGreaterThanOrEqual(90);
    expect(pages).toBeLessThanOrEqual(200);
  });

  it('pages a 100k-member set by offset: consecutive pages do not overlap, the last one ends it', async () => {
    const first = (await request(valueUrl(`${ns}:big-set`, '?offset=0&limit=1000'))).body;
    const second = (await request(valueUrl(`${ns}:big-set`, '?offset=1000&limit=1000'))).body;
    expect(first.value).toHaveLength(1000);
    expect(first).toMatchObject({ nextOffset: 1000, truncated: true });
    expect(new Set([...first.value, ...second.value]).size).toBe(2000);
    const last = (await request(valueUrl(`${ns}:big-set`, '?offset=99500&limit=1000'))).body;
    expect(last.value).toHaveLength(500);
    expect(last.nextOffset).toBeNull();
  });

  it('reads a hash by cursor too', async () => {
    const { body } = await request(valueUrl(`${ns}:hash`, '?cursor=0'));
    expect(body.value).toEqual([{ field: 'f1', value: 'v1' }, { field: 'f2', value: 'v2' }, { field: 'f3', value: 'v3' }]);
    expect(body).toMatchObject({ nextCursor: null, truncated: false });
    expect((await request(valueUrl(`${ns}:hash`, '?cursor=x'))).status).toBe(400);
  });

  it('404s a missing key, and rejects a bad page', async () => {
    const missing = await request(valueUrl(`${ns}:nope`));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    expect((await request(valueUrl(`${ns}:list`, '?limit=0'))).status).toBe(400);
    expect((await request(valueUrl(`${ns}:list`, '?offset=-1'))).status).toBe(400);
    expect((await request(valueUrl(`${ns}:list`, '?maxBytes=10'))).status).toBe(400);
  });

  it('handles keys with :, /, spaces and % on REST and tRPC alike', async () => {
    expect((await request(valueUrl(oddKey))).body).toMatchObject({ key: oddKey, value: 'odd' });
    const viaTrpc = await app.trpc.storeKeys.read.query({ connectionId: fixture.connectionId, key: oddKey });
    expect(viaTrpc.value).toBe('odd');
  });

  it.each([
    () => `${fixture.prefix}:kept:meta`,
    () => `bull:${ns}`,
    () => `bullmq:${ns}`,
  ])('refuses to delete reserved key #%# with 403 RESERVED_KEY and keeps it', async (keyOf) => {
    const key = keyOf();
    const { status, body } = await request(`${base}/${encodeURIComponent(key)}`, { method: 'DELETE' });
    expect(status).toBe(403);
    expect(body.code).toBe('RESERVED_KEY');
    expect(body.message).toMatch(/managed through queue and job operations/);
    expect(await fixture.redis.exists(key)).toBe(1);
  });

  it('deletes an ordinary key (odd characters too), then 404s it', async () => {
    const deleted = await request(`${base}/${encodeURIComponent(oddKey)}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, key: oddKey });
    expect(await fixture.redis.exists(oddKey)).toBe(0);
    expect((await request(`${base}/${encodeURIComponent(oddKey)}`, { method: 'DELETE' })).status).toBe(404);
    await fixture.redis.set(`${ns}:via-trpc`, '1');
    await expect(app.trpc.storeKeys.delete.mutate({ connectionId: fixture.connectionId, key: `${ns}:via-trpc` })).resolves.toEqual({ deleted: true, key: `${ns}:via-trpc` });
  });
});
