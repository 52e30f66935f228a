import { describe, expect, it } from 'vitest';
import { harness, names, settle, store } from './support/queue-index-harness.js';

/** QueueIndex changes: scans cut short, queues the service created or removed, concurrent lists and connections. */
describe('QueueIndex', () => {
  it('never drops queues under a prefix whose scan was cut short, and says so', async () => {
    const h = harness(5000);
    h.answer(() => ({
      refs: [
        { name: 'a', prefix: 'bull' },
        { name: 'b', prefix: 'bull' },
      ],
      incomplete: [],
    }));
    await h.index.list(store('x'));
    h.answer(() => ({
      refs: [{ name: 'c', prefix: 'bull' }],
      incomplete: [{ prefix: 'bull', reason: 'SCAN stopped after 2 calls' }],
    }));
    await h.index.rescan(store('x'));
    expect(await names(h.index.list(store('x')))).toEqual(['a', 'b', 'c']);
    expect(await h.index.status(store('x'))).toMatchObject({
      complete: false,
      queues: 3,
      incompleteReason: 'bull: SCAN stopped after 2 calls',
    });
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
});
