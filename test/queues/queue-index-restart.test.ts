import { describe, expect, it } from 'vitest';
import { harness, names, settle, store } from './support/queue-index-harness.js';

/** QueueIndex after a restart: the first list answered from the persisted index (a scan that never ends here), and preloading it. */
describe('QueueIndex', () => {
  it('answers the first list after a restart from the persisted index while a scan reconciles', async () => {
    const first = harness(5000);
    await first.index.list(store('a'));
    await first.index.flush();
    const restarted = harness(5000, first.persisted);
    restarted.holdScans(true);
    restarted.answer(() => ({
      refs: [
        { name: 'q1', prefix: 'bull' },
        { name: 'q9', prefix: 'bull' },
      ],
      incomplete: [],
    }));
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
    const counted = {
      ...first.persisted,
      load: (id: string, prefixes: readonly string[]) => {
        loads++;
        return first.persisted.load(id, prefixes);
      },
    };
    const restarted = harness(5000, counted);
    restarted.holdScans(true);
    await restarted.index.preload(store('a'));
    expect([loads, restarted.scans()]).toEqual([1, 0]);
    expect(await names(restarted.index.list(store('a')))).toEqual(['q1']);
    // The list started the reconciling scan (held here) and did not wait for it.
    expect([loads, restarted.scans()]).toEqual([1, 1]);
    restarted.release();
  });

  it("starts the reconciling scan after reconcileDelayMs (a restart's first lists on a quiet store), at once on a rescan", async () => {
    const first = harness(5000);
    await first.index.list(store('a'));
    await first.index.flush();
    const restarted = harness(5000, first.persisted, 200);
    expect(await names(restarted.index.list(store('a')))).toEqual(['q1']);
    expect(restarted.scans()).toBe(0);
    // Pending, it counts as running: the status says so and a list does not start another.
    expect((await restarted.index.status(store('a'))).scanning).toBe(true);
    await restarted.index.list(store('a'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(restarted.scans()).toBe(1);

    const again = harness(5000, first.persisted, 60_000);
    await again.index.list(store('a'));
    expect(again.scans()).toBe(0);
    await again.index.rescan(store('a'));
    expect(again.scans()).toBe(1);
  });

  it('keeps its own list after a scan that changed nothing (what is built on it stays valid)', async () => {
    const index = harness(0);
    index.answer(() => ({ refs: [{ name: 'q1', prefix: 'bull' }], incomplete: [] }));
    const first = await index.index.list(store('a'));
    // The scan reuses the index's refs (scanQueueNames with `known`): the same objects come back.
    index.answer(() => ({ refs: [first[0]!], incomplete: [] }));
    expect(await index.index.list(store('a'))).toBe(first);
    index.answer(() => ({ refs: [first[0]!, { name: 'q2', prefix: 'bull' }], incomplete: [] }));
    expect(await names(index.index.list(store('a')))).toEqual(['q1', 'q2']);
  });
});
