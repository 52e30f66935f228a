import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobCountKinds } from '../../contracts/queue-counts.js';
import { CountTracker } from '../../server/bullmq/count-tracker.js';
import { keySlot } from '../../server/bullmq/key-slot.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { slotOwnerIds } from '../../server/bullmq/tracking-group.js';
import { startLocalCluster, type LocalCluster } from '../helpers/redis-cluster.js';
import { trackerAnswer } from './support/tracker-probes.js';

/**
 * The count tracker on a 3-master cluster: a tracking link on each master, so a write on any node is
 * heard, and a lost link makes it count again rather than answer from counts it may have missed.
 * Ports from bulkmove's range (6735–6737), this file's alone.
 */
describe('CountTracker on a Redis Cluster', () => {
  let cluster: LocalCluster;
  let client: Cluster;
  let writer: Cluster;
  // Hash-tagged names: each queue's keys in one slot; enough names that every master holds some.
  const refs: QueueRef[] = Array.from({ length: 12 }, (_, index) => ({ prefix: 'bull', name: `{q${index}}` }));
  const key = (ref: QueueRef, suffix: string) => `bull:${ref.name}:${suffix}`;
  const trackedTotals = async (tracker: CountTracker) => (await trackerAnswer(tracker, refs)).totals;

  beforeAll(async () => {
    cluster = await startLocalCluster([6735, 6736, 6737]);
    const nodes = cluster.ports.map((port) => ({ host: '127.0.0.1', port }));
    client = new Cluster(nodes);
    writer = new Cluster(nodes);
    for (const ref of refs) await writer.rpush(key(ref, 'wait'), '1');
  }, 90_000);
  afterAll(async () => {
    client?.disconnect();
    writer?.disconnect();
    await cluster?.stop();
  });

  it('hears a write on every master, and counts only what changed', async () => {
    const slots = await writer.cluster('SLOTS');
    const masterOf = (ref: QueueRef) => {
      const slot = keySlot(key(ref, 'wait'));
      return slots.find(([start, end]) => slot >= start && slot <= end)![2]![2];
    };
    // One queue on each master is written below.
    const onEach = [...new Map(refs.map((ref) => [masterOf(ref), ref])).values()];
    expect(onEach).toHaveLength(3);
    const tracker = new CountTracker(client, { enabled: true });
    expect(await trackedTotals(tracker)).toMatchObject({ waiting: refs.length, failed: 0 });
    for (const ref of onEach) await writer.zadd(key(ref, 'failed'), 1, 'f');
    const answer = await tracker.totals(refs);
    expect(answer?.totals).toMatchObject({ waiting: refs.length, failed: 3 });
    const failedColumn = jobCountKinds.indexOf('failed');
    expect(answer!.rows.map((row) => row[failedColumn])).toEqual(refs.map((ref) => (onEach.includes(ref) ? 1 : 0)));
    tracker.close();
  });

  it("counts again after losing one master's link, missing no write made meanwhile", async () => {
    const tracker = new CountTracker(client, { enabled: true });
    const before = await trackedTotals(tracker);
    const node = new Redis({ host: '127.0.0.1', port: cluster.ports[1]! });
    try {
      await node.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await writer.rpush(key(refs[5]!, 'wait'), '2');
      expect(await trackedTotals(tracker)).toMatchObject({ waiting: before.waiting + 1 });
    } finally {
      node.disconnect();
      tracker.close();
    }
  });

  it('reads the owner of each slot range from CLUSTER SLOTS', () => {
    const reply = [
      [0, 5460, ['127.0.0.1', 7000, 'a', []]],
      [5461, 10922, ['127.0.0.1', 7001, 'b', []], ['127.0.0.1', 7004, 'r', []]],
      [10923, 16383, ['127.0.0.1', 7002, 'a', []]],
    ];
    expect(slotOwnerIds(reply)).toEqual(['a', 'b']);
  });
});
