import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { app, bigSetSize, fixture, ns, oddKey, useSeededKeys, valueUrl } from './support/seeded-keys.js';

describe('store keys', () => {
  useSeededKeys();

  it('reads strings: JSON parsed, text as is, big ones cut at maxBytes', async () => {
    expect((await request(valueUrl(`${ns}:json`))).body).toEqual({
      key: `${ns}:json`,
      type: 'string',
      ttl: -1,
      size: 23,
      value: { a: 1, b: [true, null] },
      offset: 0,
      nextOffset: null,
      nextCursor: null,
      truncated: false,
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
      type: 'hash',
      size: 3,
      value: [
        { field: 'f1', value: 'v1' },
        { field: 'f2', value: 'v2' },
        { field: 'f3', value: 'v3' },
      ],
      truncated: false,
      nextOffset: null,
    });
    expect((await request(valueUrl(`${ns}:hash`, '?offset=1&limit=1'))).body).toMatchObject({
      value: [{ field: 'f2', value: 'v2' }],
      nextOffset: 2,
      truncated: true,
    });
    expect((await request(valueUrl(`${ns}:list`, '?offset=1&limit=2'))).body).toMatchObject({
      type: 'list',
      size: 5,
      value: ['l1', 'l2'],
      offset: 1,
      nextOffset: 3,
      truncated: true,
    });
    expect((await request(valueUrl(`${ns}:zset`))).body).toMatchObject({
      type: 'zset',
      size: 2,
      value: [
        { member: 'low', score: 1.5 },
        { member: 'high', score: 10 },
      ],
    });
    expect((await request(valueUrl(`${ns}:stream`))).body).toMatchObject({
      type: 'stream',
      size: 2,
      value: [
        { id: '1-1', fields: { event: 'created', id: '7' } },
        { id: '2-1', fields: { event: 'deleted' } },
      ],
    });
    expect((await request(valueUrl(`${ns}:stream`, '?offset=1'))).body.value).toEqual([
      { id: '2-1', fields: { event: 'deleted' } },
    ]);
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
    expect(body.value).toEqual([
      { field: 'f1', value: 'v1' },
      { field: 'f2', value: 'v2' },
      { field: 'f3', value: 'v3' },
    ]);
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
});
