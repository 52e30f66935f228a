import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../server/load-once.js';

describe('loadOnce', () => {
  it('runs the load once for concurrent and later calls, all getting its value', async () => {
    let runs = 0;
    const load = loadOnce(async () => ({ run: ++runs }));
    const [first, second] = await Promise.all([load(), load()]);
    const later = await load();
    expect(runs).toBe(1);
    expect(second).toBe(first);
    expect(later).toBe(first);
  });

  it('does not keep a failure: the call after it loads again', async () => {
    let runs = 0;
    const load = loadOnce(async () => {
      runs += 1;
      if (runs === 1) throw new Error('interrupted');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('interrupted');
    await expect(load()).resolves.toBe('loaded');
    await expect(load()).resolves.toBe('loaded');
    expect(runs).toBe(2);
  });
});
