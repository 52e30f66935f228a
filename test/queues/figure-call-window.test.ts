import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figureCallsInFlight, inWindow } from '../../server/bullmq/figure-call-window.js';
import { figures, readQueueFigures } from '../../server/bullmq/queue-figures.js';
import { storeFixture } from '../helpers/stores.js';

describe('figure script calls in a window', () => {
  it('keeps at most figureCallsInFlight calls running, runs each once, and sends none after a failure', async () => {
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    const call = async (index: number) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
      ran.push(index);
    };
    await inWindow(
      Array.from({ length: 25 }, (_, index) => index),
      call,
    );
    expect(most).toBe(figureCallsInFlight);
    expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, index) => index));

    const sent: number[] = [];
    const failing = inWindow(
      Array.from({ length: 25 }, (_, index) => index),
      async (index) => {
        sent.push(index);
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (index === 5) throw new Error('store gone');
      },
    );
    await expect(failing).rejects.toThrow('store gone');
    expect(sent.length).toBeLessThanOrEqual(5 + figureCallsInFlight);
  });

  describe('on a real store', () => {
    const fixture = storeFixture();
    beforeAll(() => fixture.redis.connect());
    afterAll(() => fixture.cleanup());

    /** Script calls Redis has run so far, as a command queued on the connection sees it when Redis runs it. */
    const scriptCalls = async () => {
      const stats = await fixture.redis.info('commandstats');
      return [...stats.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((sum, [, n]) => sum + Number(n), 0);
    };

    it('runs a command sent during a read of many queues after a few of its calls, not after all of them', async () => {
      const refs = Array.from({ length: 3_000 }, (_, index) => ({ prefix: fixture.prefix, name: `q${index}` }));
      const before = await scriptCalls();
      const read = readQueueFigures(fixture.redis, refs, [figures.count('waiting')], 100);
      // Queued behind the calls already sent: with all 30 sent at once it would see 30 run.
      const seen = (await scriptCalls()) - before;
      await read;
      expect(seen).toBeGreaterThanOrEqual(figureCallsInFlight);
      expect(seen).toBeLessThan(20);
    });
  });
});
