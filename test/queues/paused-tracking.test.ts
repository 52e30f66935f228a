import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountTracker } from '../../server/bullmq/count-tracker.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { pausedColumn } from '../../server/bullmq/tracked-count-reads.js';
import { spawnRedis, type SpawnedRedis } from '../helpers/spawn-redis.js';
import { scriptCallsDuring as callsOn, trackerAnswer } from './support/tracker-probes.js';

const scriptCallsDuring = (work: () => Promise<unknown>) => callsOn(client, work);
const trackedRows = async (tracker: CountTracker) => (await trackerAnswer(tracker, refs)).rows;

/** Its own redis-server (its clients are this file's); port from the range of this file alone. */
const port = 6604;
let server: SpawnedRedis;
let client: Redis;
let writer: Redis;
let queue: Queue;
const refs: QueueRef[] = ['a', 'b'].map((name) => ({ prefix: 'bull', name }));

beforeAll(async () => {
  server = await spawnRedis(port);
  client = new Redis({ port, host: '127.0.0.1' });
  writer = new Redis({ port, host: '127.0.0.1' });
  queue = new Queue('b', { connection: { host: '127.0.0.1', port } });
  await queue.add('one', {});
  await writer.rpush('bull:a:wait', '1');
});
afterAll(async () => {
  await queue?.close();
  client?.disconnect();
  writer?.disconnect();
  await server?.stop();
});

describe('CountTracker: the pause flag and the export extras', () => {
  it("keeps each queue's pause flag beside its counts, read again only when its meta hash changes", async () => {
    const tracker = new CountTracker(client, { enabled: true });
    expect((await trackedRows(tracker)).map((row) => row[pausedColumn])).toEqual([0, 0]);
    // Paused by another client (a plain BullMQ Queue): the next answer has it, reading that queue alone.
    await queue.pause();
    let rows: readonly (readonly number[])[] | undefined;
    expect(await scriptCallsDuring(async () => (rows = (await tracker.totals(refs))?.rows))).toEqual([1]);
    expect(rows?.map((row) => row[pausedColumn])).toEqual([0, 1]);
    expect(await scriptCallsDuring(() => tracker.totals(refs))).toEqual([]);
    await queue.resume();
    expect((await tracker.totals(refs))?.rows.map((row) => row[pausedColumn])).toEqual([0, 0]);
    tracker.close();
  });

  it('keeps the finished totals and the oldest waiting job once a scrape asked, read again only where they changed', async () => {
    const tracker = new CountTracker(client, { enabled: true });
    expect(await tracker.exportExtras(refs)).toBeUndefined(); // no link yet: the scrape reads by script
    await trackedRows(tracker);
    const first = await tracker.exportExtras(refs);
    expect(first?.map((row) => row[0])).toEqual([0, 0]);
    expect(first?.[1]?.[2]).toBeGreaterThan(0); // queue b's waiting job's timestamp
    expect(await scriptCallsDuring(() => tracker.exportExtras(refs))).toEqual([]);
    await writer.hset('bull:a:metrics:completed', 'count', '41');
    let extras: readonly (readonly number[])[] | undefined;
    expect(await scriptCallsDuring(async () => (extras = await tracker.exportExtras(refs)))).toEqual([1]);
    expect(extras?.map((row) => row[0])).toEqual([41, 0]);
    tracker.close();
  });
});
