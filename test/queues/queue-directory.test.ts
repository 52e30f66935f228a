import { describe, expect, it } from 'vitest';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { QueueScan } from '../../server/bullmq/list-queue-names.js';
import { escapeGlob } from '../../server/bullmq/glob.js';
import { queueRefFromMetaKey } from '../../server/bullmq/queue-key.js';
import { hashTag } from '../../server/bullmq/pipelined.js';
import { QueueIndex } from '../../server/discovery/queue-index.js';
import type { IndexChange, PersistedIndex, QueueIndexStore } from '../../server/discovery/queue-index-store.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';

const store = (id: string, updatedAt = 0, prefixes = ['bull']) => ({ connection: { id, updatedAt: new Date(updatedAt) }, prefixes }) as unknown as StoreHandle;

/** The persisted index as the database keeps it, in memory: survives a new QueueIndex like rows survive a restart. */
function memoryIndexStore(): QueueIndexStore & { saves: IndexChange[] } {
  const rows = new Map<string, PersistedIndex>();
  const saves: IndexChange[] = [];
  return {
    saves,
    async load(id) {
      const found = rows.get(id);
      return found ? { refs: [...found.refs], scans: [...found.scans] } : null;
    },
    async save(id, change) {
      saves.push(change);
      const current = rows.get(id) ?? { refs: [], scans: [] };
      const gone = new Set(change.removed.map((ref) => `${ref.prefix}/${ref.name}`));
      const refs = [...current.refs.filter((ref) => !gone.has(`${ref.prefix}/${ref.name}`)), ...change.added];
      const scans = [...current.scans.filter((scan) => !change.scans.some((next) => next.prefix === scan.prefix)), ...change.scans];
      rows.set(id, { refs, scans });
    },
  };
}

function harness(ttlMs: number, persisted = memoryIndexStore()) {
  let now = 0;
  let scans = 0;
  let fail = false;
  let hold = false;
  let release: (() => void) | undefined;
  let next: (scan: number) => QueueScan = (scan) => ({ refs: [{ name: `q${scan}`, prefix: 'bull' }], incomplete: [] });
  const index = new QueueIndex({
    ttlMs,
    store: persisted,
    now: () => now,
    scan: async () => {
      const scan = (scans += 1);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (fail) throw new Error('store down');
      return next(scan);
    },
  });
  return {
    index,
    persisted,
    advance: (ms: number) => (now += ms),
    scans: () => scans,
    failNext: (value: boolean) => (fail = value),
    holdScans: (value: boolean) => (hold = value),
    release: () => release?.(),
    answer: (make: (scan: number) => QueueScan) => (next = make),
  };
}

const names = async (refs: Promise<QueueRef[]>) => (await refs).map((ref) => ref.name);
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('QueueIndex', () => {
  it('waits for the first scan only, then reuses the names within the TTL', async () => {
    const h = harness(5000);
    expect(await h.index.list(store('a'))).toEqual([{ name: 'q1', prefix: 'bull' }]);
    h.advance(4999);
    expect(await names(h.index.list(store('a')))).toEqual(['q1']);
    expect(h.scans()).toBe(1);
  });

  it('past the TTL, however long, serves the known names while one background rescan runs', async () => {
    const h = harness(5000);
    await h.index.list(store('a'));
    h.advance(3_600_000);
    h.holdScans(true);
    const during = await Promise.all([names(h.index.list(store('a'))), names(h.index.list(store('a')))]);
    expect(during).toEqual([['q1'], ['q1']]);
    expect((await h.index.status(store('a'))).scanning).toBe(true);
    h.release();
    await settle();
    expect(await names(h.index.list(store('a')))).toEqual(['q2']);
    expect(h.scans()).toBe(2);
  });

  it('spaces background rescans by ten times the last scan duration', async () => {
    const h = harness(1000);
    h.answer((scan) => {
      h.advance(2000); // every scan takes 2 s
      return { refs: [{ name: `q${scan}`, prefix: 'bull' }], incomplete: [] };
    });
    await h.index.list(store('a'));
    h.advance(10_000);
    await h.index.list(store('a'));
    expect(h.scans()).toBe(1);
    h.advance(10_000);
    await h.index.list(store('a'));
    expect(h.scans()).toBe(2);
  });

  it('keeps the names when a background rescan fails, and reports the failure', async () => {
    const h = harness(5000);
    await h.index.list(store('a'));
    h.advance(5000);
    h.failNext(true);
    await h.index.list(store('a'));
    await settle();
    expect(await names(h.index.list(store('a')))).toEqual(['q1']);
    const status = await h.index.status(store('a'));
    expect(status).toMatchObject({ complete: false, queues: 1, incompleteReason: expect.stringContaining('store down') });
  });

  it('answers the first list after a restart from the persisted index while a scan reconciles', async () => {
    const first = harness(5000);
    await first.index.list(store('a'));
    await first.index.flush();
    const restarted = harness(5000, first.persisted);
    restarted.holdScans(true);
    restarted.answer(() => ({ refs: [{ name: 'q1', prefix: 'bull' }, { name: 'q9', prefix: 'bull' }], incomplete: [] }));
    expect(await names(restarted.index.list(store('a')))).toEqual(['q1']);
    expect(restarted.scans()).toBe(1);
    restarted.release();
    await settle();
    expect(await names(restarted.index.list(store('a')))).toEqual(['q1', 'q9']);
    await restarted.index.flush();
    expect(restarted.persisted.saves.at(-1)).toMatchObject({ added: [{ name: 'q9' }], removed: [] });
  });

  it('preloads the persisted index without scanning; the first list then neither reads it again nor waits for a scan', async () => {
    const first = harness(5000);
    await first.index.list(store('a'));
    await first.index.flush();
    let loads = 0;
    const counted = { ...first.persisted, load: (id: string, prefixes: readonly string[]) => (loads++, first.persisted.load(id, prefixes)) };
    const restarted = harness(5000, counted);
    restarted.holdScans(true);
    await restarted.index.preload(store('a'));
    expect([loads, restarted.scans()]).toEqual([1, 0]);
    expect(await names(restarted.index.list(store('a')))).toEqual(['q1']);
    // The list started the reconciling scan (held here) and did not wait for it.
    expect([loads, restarted.scans()]).toEqual([1, 1]);
    restarted.release();
  });

  it('never drops queues under a prefix whose scan was cut short, and says so', async () => {
    const h = harness(5000);
    h.answer(() => ({ refs: [{ name: 'a', prefix: 'bull' }, { name: 'b', prefix: 'bull' }], incomplete: [] }));
    await h.index.list(store('x'));
    h.answer(() => ({ refs: [{ name: 'c', prefix: 'bull' }], incomplete: [{ prefix: 'bull', reason: 'SCAN stopped after 2 calls' }] }));
    await h.index.rescan(store('x'));
    expect(await names(h.index.list(store('x')))).toEqual(['a', 'b', 'c']);
    expect(await h.index.status(store('x'))).toMatchObject({ complete: false, queues: 3, incompleteReason: 'bull: SCAN stopped after 2 calls' });
    h.answer(() => ({ refs: [{ name: 'c', prefix: 'bull' }], incomplete: [] }));
    await h.index.rescan(store('x'));
    expect(await names(h.index.list(store('x')))).toEqual(['c']);
    expect(await h.index.status(store('x'))).toMatchObject({ complete: true, incompleteReason: null });
  });

  it('keeps what the service created or removed while a scan ran', async () => {
    const h = harness(5000);
    h.answer(() => ({ refs: [{ name: 'old', prefix: 'bull' }], incomplete: [] }));
    await h.index.list(store('a'));
    h.holdScans(true);
    const scan = h.index.rescan(store('a'));
    await settle();
    h.index.remember('a', { name: 'new', prefix: 'bull' });
    h.index.removed('a', { name: 'old', prefix: 'bull' });
    h.release();
    await scan;
    expect(await names(h.index.list(store('a')))).toEqual(['new']);
  });

  it('remembers a queue the service created, in name order, without a rescan', async () => {
    const h = harness(5000);
    await h.index.list(store('a'));
    h.index.remember('a', { name: 'a0', prefix: 'bull' });
    h.index.remember('a', { name: 'q1', prefix: 'bull' });
    h.index.remember('a', { name: 'zz', prefix: 'bull' });
    h.index.remember('b', { name: 'elsewhere', prefix: 'bull' });
    expect(await names(h.index.list(store('a')))).toEqual(['a0', 'q1', 'zz']);
    expect(h.scans()).toBe(1);
  });

  it('shares one scan between concurrent lists and keeps connections apart', async () => {
    const h = harness(5000);
    await Promise.all([h.index.list(store('a')), h.index.list(store('a')), h.index.list(store('b'))]);
    expect(h.scans()).toBe(2);
  });

  it('does not keep a failed first scan: the next list tries again', async () => {
    const h = harness(5000);
    h.failNext(true);
    await expect(h.index.list(store('a'))).rejects.toThrow('store down');
    h.failNext(false);
    expect(await names(h.index.list(store('a')))).toEqual(['q2']);
  });

  it('with a TTL of 0 scans on every list', async () => {
    const h = harness(0);
    await h.index.list(store('a'));
    await h.index.list(store('a'));
    expect(h.scans()).toBe(2);
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
