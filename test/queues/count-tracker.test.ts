import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountTracker } from '../../server/bullmq/count-tracker.js';
import { trackablePrefixes } from '../../server/bullmq/tracking-link.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { spawnRedis, type SpawnedRedis } from '../helpers/spawn-redis.js';
import { scriptCallsDuring as callsOn, trackerAnswer } from './support/tracker-probes.js';

const scriptCallsDuring = (work: () => Promise<unknown>) => callsOn(client, work);
const trackedTotals = async (tracker: CountTracker) => (await trackerAnswer(tracker, refs)).totals;

/** Its own redis-server (flushed and its clients killed here); port from the range of this file alone. */
const port = 6436;
let server: SpawnedRedis;
let client: Redis;
let writer: Redis;
const refs: QueueRef[] = ['a', 'b', 'c'].map((name) => ({ prefix: 'bull', name }));

beforeAll(async () => {
  server = await spawnRedis(port);
  client = new Redis({ port, host: '127.0.0.1' });
  writer = new Redis({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  client?.disconnect();
  writer?.disconnect();
  await server?.stop();
});

describe('CountTracker on a real Redis', () => {
  it('reads again only the queues a notice named, and nothing when none changed', async () => {
    await writer.rpush('bull:a:wait', '1', '2');
    await writer.zadd('bull:b:completed', 1, 'x');
    const tracker = new CountTracker(client, { enabled: true });
    expect(await trackedTotals(tracker)).toMatchObject({ waiting: 2, completed: 1, failed: 0 });
    expect(await scriptCallsDuring(() => tracker.totals(refs))).toEqual([]);
    await writer.zadd('bull:c:failed', 1, 'f');
    let totals: unknown;
    expect(await scriptCallsDuring(async () => (totals = (await tracker.totals(refs))?.totals))).toEqual([1]);
    expect(totals).toMatchObject({ waiting: 2, completed: 1, failed: 1 });
    // A status key that did not exist when the queue was read.
    await writer.zadd('bull:a:delayed', 1, 'd');
    expect((await tracker.totals(refs))?.totals).toMatchObject({ waiting: 2, delayed: 1 });
    tracker.close();
  });

  it('at 20,000 queues and more, answers the first request after its catch-up instead of counting beside it', async () => {
    const many: QueueRef[] = Array.from({ length: 20_000 }, (_, i) => ({ prefix: 'bull', name: `many-${i}` }));
    await writer.rpush('bull:many-7:wait', '1');
    const tracker = new CountTracker(client, { enabled: true });
    const first = await tracker.totals(many);
    expect(first?.totals).toMatchObject({ waiting: 1 });
    expect(first?.rows[7]?.[0]).toBe(1);
    // Caught up: the next one reads nothing.
    expect(await scriptCallsDuring(() => tracker.totals(many))).toEqual([]);
    tracker.close();
    await writer.del('bull:many-7:wait');
  });

  it('starts over after a flush and after losing its connections, missing no change made meanwhile', async () => {
    await writer.flushall();
    await writer.rpush('bull:a:wait', '1');
    const tracker = new CountTracker(client, { enabled: true });
    expect(await trackedTotals(tracker)).toMatchObject({ waiting: 1 });
    await writer.flushall();
    expect(await trackedTotals(tracker)).toMatchObject({ waiting: 0 });

    await writer.rpush('bull:b:wait', '1', '2', '3');
    expect(await trackedTotals(tracker)).toMatchObject({ waiting: 3 });
    await writer.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    // While the link is down nothing is noticed: the tracker answers nothing rather than old counts.
    await writer.rpush('bull:c:wait', '1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await tracker.totals(refs)).toBeUndefined();
    expect(await trackedTotals(tracker)).toMatchObject({ waiting: 4 });
    tracker.close();
  });

  it('gives up on a link that does not answer within a second, then starts over', async () => {
    const tracker = new CountTracker(client, { enabled: true });
    await trackedTotals(tracker);
    await writer.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const asked = Date.now();
    expect(await tracker.totals(refs)).toBeUndefined();
    expect(Date.now() - asked).toBeLessThan(1400);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await writer.rpush('bull:a:wait', 'after');
    const waiting =
      Number(await writer.llen('bull:a:wait')) +
      Number(await writer.llen('bull:b:wait')) +
      Number(await writer.llen('bull:c:wait'));
    expect((await trackedTotals(tracker)).waiting).toBe(waiting);
    tracker.close();
  });

  it('leaves nothing behind in the store when it closes, and closes by itself when no totals are asked for', async () => {
    const trackingState = async () =>
      (await writer.info('stats')).match(/tracking_total_(keys|items|prefixes):\d+/g)!.join(' ');
    const tracker = new CountTracker(client, { enabled: true, prefixes: ['bull', 'bull:nested'], idleCloseMs: 300 });
    await trackedTotals(tracker);
    expect(await trackingState()).toBe('tracking_total_keys:0 tracking_total_items:0 tracking_total_prefixes:1');
    expect(await writer.client('LIST')).toContain('name=bullpen-tracking');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await writer.client('LIST')).not.toContain('name=bullpen-tracking');
    expect(await trackingState()).toBe('tracking_total_keys:0 tracking_total_items:0 tracking_total_prefixes:0');
    // Asked again, it counts (nothing is known any more) and starts over.
    expect(await tracker.totals(refs)).toBeUndefined();
    expect(await trackedTotals(tracker)).toBeDefined();
    tracker.close();
  });

  it('closes a link still opening when the store closes, leaving no connection behind', async () => {
    const tracker = new CountTracker(client, { enabled: true });
    expect(await tracker.totals(refs)).toBeUndefined();
    tracker.close();
    await tracker.settled();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await writer.client('LIST')).not.toContain('name=bullpen-tracking');
    expect(await tracker.totals(refs)).toBeUndefined();
  });

  it('answers nothing, with no connection of its own, when off or on a store without CLIENT TRACKING', async () => {
    const off = new CountTracker(client, { enabled: false });
    expect(await off.totals(refs)).toBeUndefined();
    await writer.call('ACL', 'SETUSER', 'no-tracking', 'on', '>secret', '~*', '&*', '+@all', '-client');
    const limited = new Redis({ port, host: '127.0.0.1', username: 'no-tracking', password: 'secret' });
    try {
      const tracker = new CountTracker(limited, { enabled: true });
      expect(await tracker.totals(refs)).toBeUndefined();
      await tracker.settled();
      expect(await tracker.totals(refs)).toBeUndefined();
      const names = (await writer.client('LIST')) as string;
      expect(names).not.toContain('bullpen-tracking');
      tracker.close();
    } finally {
      limited.disconnect();
    }
  });
});

describe('trackablePrefixes', () => {
  it('tracks each key prefix once, a shorter one standing for those it starts (Redis refuses overlaps)', () => {
    expect(trackablePrefixes(['bull', 'bull:nested', 'bullmq', 'bull'])).toEqual(['bull:', 'bullmq:']);
  });
});
