import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { keySlot } from './key-slot.js';
import { hashTag } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-key.js';

/** Queues read by one figures script call: indexes into the refs, and whether their keys span several slots. */
export interface FigureCall {
  indexes: number[];
  /** Keys of several slots (one cluster node's queues): sent with the keys after the first in ARGV. */
  acrossSlots: boolean;
}

/**
 * Where a queue's figures are read on a cluster: on the master serving its slot when the client knows the
 * slot map (a call per master and `perCall` queues, whatever the number of hash tags: 5,000 tagged queues
 * over 3 masters were 5,000 calls read one tag each), else per hash tag (a call's keys then share a slot).
 */
function groupOf(cluster: Cluster | undefined, ref: QueueRef): string {
  if (!cluster) return '';
  const key = queueKey(ref, 'meta');
  const master = cluster.slots[keySlot(key)]?.[0];
  return master ? `node ${master}` : `tag ${hashTag(key)}`;
}

/** Indexes of `refs` per script call: one group per master (else per hash tag) on a cluster, cut in runs of `perCall`. */
export function figureCalls(client: StoreClient, refs: readonly QueueRef[], perCall: number): FigureCall[] {
  const cluster = client instanceof Cluster ? client : undefined;
  const groups = new Map<string, number[]>();
  refs.forEach((ref, index) => {
    const name = groupOf(cluster, ref);
    const group = groups.get(name);
    if (group) group.push(index);
    else groups.set(name, [index]);
  });
  return [...groups].flatMap(([name, group]) =>
    Array.from({ length: Math.ceil(group.length / perCall) }, (_, i) => ({
      indexes: group.slice(i * perCall, (i + 1) * perCall),
      acrossSlots: name.startsWith('node '),
    })),
  );
}

/** The same queues split by hash tag: what a call across slots falls back to when its node refused a key. */
export function byHashTag(refs: readonly QueueRef[], call: FigureCall): FigureCall[] {
  const groups = new Map<string, number[]>();
  for (const index of call.indexes) {
    const tag = hashTag(queueKey(refs[index]!, 'meta'));
    const group = groups.get(tag);
    if (group) group.push(index);
    else groups.set(tag, [index]);
  }
  return [...groups.values()].map((indexes) => ({ indexes, acrossSlots: false }));
}

/** KEYS and the ARGV prefix of a call: on one slot every meta key in KEYS; across slots the first, the rest in ARGV. */
export function callKeys(
  metaKeys: string[],
  acrossSlots: boolean,
): { keys: string[]; argsBefore: Array<string | number> } {
  if (!acrossSlots || metaKeys.length < 2) return { keys: metaKeys, argsBefore: [] };
  return { keys: [metaKeys[0]!], argsBefore: ['@keys', metaKeys.length - 1, ...metaKeys.slice(1)] };
}
