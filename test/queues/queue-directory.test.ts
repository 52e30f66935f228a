import { describe, expect, it } from 'vitest';
import type { QueueRef } from '../../domain/stores/queue-key.js';
import { escapeGlob } from '../../domain/stores/glob.js';
import { queueRefFromMetaKey } from '../../domain/stores/queue-key.js';
import { hashTag } from '../../domain/stores/pipelined.js';
import { CachedQueueDirectory } from '../../server/queues/cached-queue-directory.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';

const store = (id: string, updatedAt = 0) => ({ connection: { id, updatedAt: new Date(updatedAt) } }) as unknown as StoreHandle;

function directory(ttlMs: number, staleMs = 60_000) {
  let now = 0;
  let scans = 0;
  let fail = false;
  let release: (() => void) | undefined;
  let hold = false;
  const cache = new CachedQueueDirectory({
    ttlMs,
    staleMs,
    now: () => now,
    discover: async (): Promise<QueueRef[]> => {
      const scan = (scans += 1);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (fail) throw new Error('store down');
      return [{ name: `q${scan}`, prefix: 'bull' }];
    },
  });
  return {
    cache,
    advance: (ms: number) => (now += ms),
    scans: () => scans,
    failNext: (value: boolean) => (fail = value),
    holdScans: (value: boolean) => (hold = value),
    release: () => release?.(),
  };
}

const firstName = async (names: Promise<QueueRef[]>) => (await names)[0]!.name;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CachedQueueDirectory', () => {
  it('reuses the names within the TTL', async () => {
    const d = directory(5000);
    expect(await d.cache.list(store('a'))).toEqual([{ name: 'q1', prefix: 'bull' }]);
    d.advance(4999);
    expect(await firstName(d.cache.list(store('a')))).toBe('q1');
    expect(d.scans()).toBe(1);
  });

  it('past the TTL serves the old names while one background rescan runs', async () => {
    const d = directory(5000);
    await d.cache.list(store('a'));
    d.advance(5000);
    const during = [d.cache.list(store('a')), d.cache.list(store('a'))];
    expect(await Promise.all(during.map(firstName))).toEqual(['q1', 'q1']);
    await settle();
    expect(await firstName(d.cache.list(store('a')))).toBe('q2');
    expect(d.scans()).toBe(2);
  });

  it('past the stale window waits for a fresh scan', async () => {
    const d = directory(5000, 10_000);
    await d.cache.list(store('a'));
    d.advance(15_000);
    expect(await firstName(d.cache.list(store('a')))).toBe('q2');
  });

  it('keeps the old names when a background rescan fails', async () => {
    const d = directory(5000);
    await d.cache.list(store('a'));
    d.advance(5000);
    d.failNext(true);
    await d.cache.list(store('a'));
    await settle();
    expect(await firstName(d.cache.list(store('a')))).toBe('q1');
  });

  it('drops a background rescan that began before forget', async () => {
    const d = directory(5000);
    await d.cache.list(store('a'));
    d.advance(5000);
    d.holdScans(true);
    await d.cache.list(store('a'));
    d.cache.forget('a');
    d.release();
    await settle();
    d.holdScans(false);
    expect(await firstName(d.cache.list(store('a')))).toBe('q3');
  });

  it('remembers a queue the service created, in name order, without a rescan', async () => {
    const d = directory(5000);
    await d.cache.list(store('a'));
    d.cache.remember('a', { name: 'a0', prefix: 'bull' });
    d.cache.remember('a', { name: 'q1', prefix: 'bull' });
    d.cache.remember('a', { name: 'zz', prefix: 'bull' });
    d.cache.remember('b', { name: 'elsewhere', prefix: 'bull' });
    expect((await d.cache.list(store('a'))).map((ref) => ref.name)).toEqual(['a0', 'q1', 'zz']);
    expect(d.scans()).toBe(1);
  });

  it('keeps a remembered queue across a background rescan that began before it was created', async () => {
    const d = directory(5000);
    await d.cache.list(store('a'));
    d.advance(5000);
    d.holdScans(true);
    await d.cache.list(store('a'));
    d.cache.remember('a', { name: 'new', prefix: 'bull' });
    d.release();
    await settle();
    expect((await d.cache.list(store('a'))).map((ref) => ref.name)).toEqual(['new', 'q2']);
  });

  it('shares one scan between concurrent lists and keeps connections apart', async () => {
    const d = directory(5000);
    await Promise.all([d.cache.list(store('a')), d.cache.list(store('a')), d.cache.list(store('b'))]);
    expect(d.scans()).toBe(2);
  });

  it('rescans after forget and after the connection record changed', async () => {
    const d = directory(5000);
    await d.cache.list(store('a'));
    d.cache.forget('a');
    await d.cache.list(store('a'));
    await d.cache.list(store('a', 1));
    expect(d.scans()).toBe(3);
  });

  it('does not remember a failed scan', async () => {
    const d = directory(5000);
    d.failNext(true);
    await expect(d.cache.list(store('a'))).rejects.toThrow('store down');
    d.failNext(false);
    expect(await firstName(d.cache.list(store('a')))).toBe('q2');
  });

  it('with a TTL of 0 scans on every list', async () => {
    const d = directory(0);
    await d.cache.list(store('a'));
    await d.cache.list(store('a'));
    expect(d.scans()).toBe(2);
  });
});

describe('queue keys', () => {
  it('derives names with ":" from meta keys and ignores other keys', () => {
    expect(queueRefFromMetaKey('bull', 'bull:a:b:meta')).toEqual({ prefix: 'bull', name: 'a:b' });
    expect(queueRefFromMetaKey('{bull}', '{bull}:mail:meta')).toEqual({ prefix: '{bull}', name: 'mail' });
    expect(queueRefFromMetaKey('bull', 'bull::meta')).toBeUndefined();
    expect(queueRefFromMetaKey('bull', 'bullx:q:meta')).toBeUndefined();
  });

  it('escapes glob characters of a prefix', () => {
    expect(escapeGlob('a*b?[c]\\d')).toBe('a\\*b\\?\\[c\\]\\\\d');
  });

  it('finds the hash tag Redis Cluster routes by', () => {
    expect(hashTag('{bull}:q:wait')).toBe('bull');
    expect(hashTag('bull:{q}:wait')).toBe('q');
    expect(hashTag('bull:{}:wait')).toBe('bull:{}:wait');
    expect(hashTag('bull:q:wait')).toBe('bull:q:wait');
  });
});
