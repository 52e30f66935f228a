import { describe, expect, it } from 'vitest';
import { callInWindow } from '../../server/tasks/call-window.js';

/** A fake store call: answers `size` items acted on, or fewer once `available` runs out, after a turn of the loop. */
function fakeStore(available: number) {
  const sizes: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const call = async (size: number) => {
    sizes.push(size);
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    const acted = Math.min(size, available);
    available -= acted;
    return acted;
  };
  return { call, sizes, mostInFlight: () => mostInFlight };
}

describe('callInWindow', () => {
  it('keeps up to inFlight calls sent, spends exactly the budget, and hands answers over in order', async () => {
    const store = fakeStore(10_000);
    const answers: number[] = [];
    const last = await callInWindow(
      1100,
      { size: 250, inFlight: 3 },
      store.call,
      (acted) => acted === 0,
      (acted) => {
        answers.push(acted);
      },
    );
    expect(last).toBe(false);
    expect(store.sizes).toEqual([250, 250, 250, 250, 100]);
    expect(store.mostInFlight()).toBe(3);
    expect(answers).toEqual([250, 250, 250, 250, 100]);
  });

  it('sends nothing more once an answer says it was the last, but awaits and hands over those already sent', async () => {
    const store = fakeStore(600);
    const answers: number[] = [];
    const last = await callInWindow(
      10_000,
      { size: 250, inFlight: 4 },
      store.call,
      (acted) => acted < 250,
      (acted) => {
        answers.push(acted);
      },
    );
    expect(last).toBe(true);
    // The first two answers each sent one more call before the third said it was the last; those found
    // none, and nothing was sent once that answer was seen.
    expect(answers).toEqual([250, 250, 100, 0, 0, 0]);
    expect(store.sizes).toHaveLength(6);
  });

  it('one call at a time with a window of one', async () => {
    const store = fakeStore(1000);
    await callInWindow(1000, { size: 100, inFlight: 1 }, store.call, (acted) => acted === 0);
    expect(store.mostInFlight()).toBe(1);
    expect(store.sizes).toHaveLength(10);
  });

  it('rethrows a failed call only once the calls sent beside it have ended', async () => {
    const ended: number[] = [];
    const call = async (size: number) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (ended.length === 0) {
        ended.push(-1);
        throw new Error('store down');
      }
      ended.push(size);
      return size;
    };
    await expect(callInWindow(40, { size: 10, inFlight: 3 }, call, () => false)).rejects.toThrow('store down');
    // The two sent beside the failed one had ended by then; nothing was sent after the failure was seen.
    expect(ended).toEqual([-1, 10, 10]);
  });
});
