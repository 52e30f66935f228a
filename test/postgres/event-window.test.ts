import { describe, expect, it } from 'vitest';
import { EventWindow, settleMs } from '../../server/postgres/event-window.js';

const snapshot = (xmin: number, xmax: number) => ({ xmin: BigInt(xmin), xmax: BigInt(xmax) });

describe('the event window of a PostgreSQL feed', () => {
  it('keeps the floor below ids read while a transaction that began before the read is still running', () => {
    const window = new EventWindow(10n);
    expect(window.admit(12n)).toBe(true); // 11 is still uncommitted (transaction 100 running)
    window.settle(snapshot(100, 105), snapshot(100, 105), 0);
    expect(window.floor).toBe(10n);
    window.settle(snapshot(100, 106), snapshot(100, 106), 1); // 100 still running: nothing settles
    expect(window.floor).toBe(10n);
    expect(window.admit(12n)).toBe(false); // read again, not delivered again
    expect(window.admit(11n)).toBe(true); // 100 committed: 11 arrives late and is delivered
    window.settle(snapshot(106, 107), snapshot(106, 107), 2); // every transaction below 105 has ended
    expect(window.floor).toBe(12n);
    expect(window.pending).toBe(0);
    expect(window.admit(11n)).toBe(false);
  });

  it('shares one mark between reads close together, settling it only when the later one’s transactions ended', () => {
    const window = new EventWindow(10n);
    window.admit(12n);
    window.settle(snapshot(100, 105), snapshot(100, 105), 0);
    window.admit(20n);
    window.settle(snapshot(100, 110), snapshot(100, 110), 50);
    window.settle(snapshot(107, 111), snapshot(107, 111), 200); // 107..109 may still hold ids below 20
    expect(window.floor).toBeLessThan(20n);
    window.settle(snapshot(110, 111), snapshot(110, 111), 300);
    expect(window.floor).toBe(20n);
  });

  it(`settles a window held open by a transaction running longer than ${settleMs} ms`, () => {
    const window = new EventWindow(0n);
    window.admit(5n);
    window.settle(snapshot(50, 60), snapshot(50, 60), 0);
    window.settle(snapshot(50, 61), snapshot(50, 61), settleMs + 1);
    expect(window.floor).toBe(5n);
  });
});
