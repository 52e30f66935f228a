import { describe, expect, it } from 'vitest';
import { isReservedKey } from '../../routers/store-keys/reserved-prefixes.js';
import { request } from '../helpers/app.js';
import { app, base, fixture, ns, oddKey, useSeededKeys } from './support/seeded-keys.js';

describe('reserved key prefixes', () => {
  it('covers bull:, bullmq: and the connection prefixes, nothing else', () => {
    const prefixes = ['bull:', 'bullmq:', 'jobs:'];
    expect(['bull:q:1', 'bullmq:x', 'jobs:q:meta'].every((key) => isReservedKey(key, prefixes))).toBe(true);
    expect(['bullish', 'bull', 'job:x', 'x:bull:y'].some((key) => isReservedKey(key, prefixes))).toBe(false);
  });
});

describe('store keys', () => {
  useSeededKeys();

  async function searchAll(query: string): Promise<any[]> {
    const keys: any[] = [];
    let cursor = '0';
    for (let page = 0; page < 1000; page++) {
      // Three small pages prove the cursor carries on; then large ones, so other tests' keys in the shared store
      // (tens of thousands after an interrupted run) do not make a walk of COUNT 3 take thousands of pages.
      const paged = page < 3 ? query : query.replace(/count=\d+/, 'count=1000');
      const { status, body } = await request(`${base}/search?${paged}&cursor=${encodeURIComponent(cursor)}`);
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
      [
        `${ns}:json`,
        `${ns}:text`,
        `${ns}:big-string`,
        oddKey,
        `${ns}:hash`,
        `${ns}:list`,
        `${ns}:fat-list`,
        `${ns}:zset`,
        `${ns}:stream`,
        `${ns}:big-set`,
      ].sort(),
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

  it.each([() => `${fixture.prefix}:kept:meta`, () => `bull:${ns}`, () => `bullmq:${ns}`])(
    'refuses to delete reserved key #%# with 403 RESERVED_KEY and keeps it',
    async (keyOf) => {
      const key = keyOf();
      const { status, body } = await request(`${base}/${encodeURIComponent(key)}`, { method: 'DELETE' });
      expect(status).toBe(403);
      expect(body.code).toBe('RESERVED_KEY');
      expect(body.message).toMatch(/managed through queue and job operations/);
      expect(await fixture.redis.exists(key)).toBe(1);
    },
  );

  it('deletes an ordinary key (odd characters too), then 404s it', async () => {
    const deleted = await request(`${base}/${encodeURIComponent(oddKey)}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, id: oddKey, deleted: true, key: oddKey });
    expect(await fixture.redis.exists(oddKey)).toBe(0);
    expect((await request(`${base}/${encodeURIComponent(oddKey)}`, { method: 'DELETE' })).status).toBe(404);
    await fixture.redis.set(`${ns}:via-trpc`, '1');
    await expect(
      app.trpc.storeKeys.delete.mutate({ connectionId: fixture.connectionId, key: `${ns}:via-trpc` }),
    ).resolves.toEqual({ success: true, id: `${ns}:via-trpc`, deleted: true, key: `${ns}:via-trpc` });
  });
});
