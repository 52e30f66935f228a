import { describe, expect, it } from 'vitest';
import { harness, names, settle, store } from './support/queue-index-harness.js';

/** QueueIndex over time: the first scan, the TTL, background rescans, their spacing and failures. */
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

  it('while no queue is known, waits for a rescan on a list within the TTL: the first queues show at once', async () => {
    const h = harness(5000);
    h.answer((scan) => ({ refs: scan === 1 ? [] : [{ name: 'first', prefix: 'bull' }], incomplete: [] }));
    expect(await names(h.index.list(store('a')))).toEqual([]);
    h.advance(10);
    expect(await names(h.index.list(store('a')))).toEqual(['first']);
    expect(h.scans()).toBe(2);
    // Found: back to the TTL and background rescans.
    h.advance(10);
    await h.index.list(store('a'));
    expect(h.scans()).toBe(2);
  });

  it('while no queue is known, spaces those rescans by ten times the last scan duration', async () => {
    const h = harness(5000);
    h.answer(() => {
      h.advance(200); // every scan takes 200 ms and finds nothing
      return { refs: [], incomplete: [] };
    });
    await h.index.list(store('a'));
    h.advance(1000);
    await h.index.list(store('a'));
    expect(h.scans()).toBe(1);
    h.advance(1000);
    await h.index.list(store('a'));
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
    expect(status).toMatchObject({
      complete: false,
      queues: 1,
      incompleteReason: expect.stringContaining('store down'),
    });
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
