import type { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { moveAcrossStores } from '../../server/bullmq/move-across-stores.js';
import { moveJournalKey, redisMoveSource, redisMoveTarget } from '../../server/bullmq/redis-move-ends.js';
import { moveTallyKey, moveWithinStore } from '../../server/bullmq/move-within-store.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { MovePlan } from './move-jobs.js';

export interface MoveEnds {
  sourceStore: StoreHandle;
  source: { ref: QueueRef; queue: Queue };
  targetStore: StoreHandle;
  target: QueueRef;
  keepIds: boolean;
  /** Who moves: a task's id (its resumed runs are the same mover), or a request's own id. */
  mover: string;
  /** Keep a tally of moved jobs (a task's total survives its crashes). */
  tallied: boolean;
}

/**
 * How jobs cross: within one standalone store, one script copies and removes each job; otherwise
 * (another store, or a cluster, whose queues may sit on different nodes) through the target's
 * move journal. Either way a task resumed after a crash neither loses nor doubles a job.
 */
export function planMove(ends: MoveEnds): MovePlan & { tally(): Promise<number> } {
  const { sourceStore, targetStore, source, target, mover } = ends;
  const withinStore = sourceStore.client === targetStore.client && !(sourceStore.client instanceof Cluster);
  const recorder = withinStore ? sourceStore : targetStore;
  return {
    source: { client: sourceStore.client, ref: source.ref, queue: source.queue },
    target: { ref: target, keepIds: ends.keepIds },
    carry: withinStore
      ? (orders) =>
          moveWithinStore(
            sourceStore.client,
            source.ref,
            target,
            orders,
            ends.tallied ? moveTallyKey(target, mover) : '',
          )
      : (orders) =>
          moveAcrossStores(
            {
              source: redisMoveSource({ client: sourceStore.client, ref: source.ref }),
              target: redisMoveTarget(
                { client: targetStore.client, ref: target },
                moveJournalKey(target, sourceStore.connection.id, source.ref),
              ),
              mover,
              tallied: ends.tallied,
            },
            orders,
          ),
    tally: async () => Number((await recorder.client.get(moveTallyKey(target, mover))) ?? 0),
  };
}
