import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import type { StoreMoveEnds } from './move-across-stores.js';
import { statusMove } from './move-from-status.js';
import { moveWithinStorePlain } from './move-plain.js';
import { moveTallyKey, moveWithinStore } from './move-within-store.js';
import { readJobOpts } from './read-job-opts.js';
import { moveJournalKey, redisMoveSource, redisMoveTarget } from './redis-move-ends.js';

/**
 * A Redis store's ends of a move: the scripts of redis-move-ends.ts across stores, and between
 * two queues of one standalone store one script per batch (a cluster's queues may sit on
 * different nodes, so a cluster moves through the journal even within itself).
 */
export function redisStoreMoveEnds(client: StoreClient): StoreMoveEnds {
  return {
    source: (ref) => ({ ...redisMoveSource({ client, ref }), readOpts: (ids) => readJobOpts(client, ref, ids) }),
    target: (ref, from) => ({
      ...redisMoveTarget({ client, ref }, moveJournalKey(ref, from.connectionId, from.ref)),
      tally: async (mover) => Number((await client.get(moveTallyKey(ref, mover))) ?? 0),
    }),
    ...(client instanceof Cluster
      ? {}
      : {
          within: (from, to) => ({
            carry: (orders, mover) => moveWithinStore(client, from, to, orders, mover && moveTallyKey(to, mover)),
            carryPlain: (orders, mover) =>
              moveWithinStorePlain(client, from, to, orders, mover && moveTallyKey(to, mover)),
            status: (status, move) => statusMove({ client, from, to, status, ...move }),
          }),
        }),
  };
}
