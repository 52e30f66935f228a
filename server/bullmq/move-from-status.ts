import type { JobStatus } from '../../contracts/jobs.js';
import type { StoreClient } from '../stores/redis-client.js';
import type { PlainVerdict } from './move-plain.js';
import { moveHeldKey, moveTallyKey, moveWithinStore, type MoveOrder, type MoveVerdict } from './move-within-store.js';
import { pickScript } from './pick-script.js';
import { keyByStatus, listStatuses } from './status-keys.js';
import { queueKey, type QueueRef } from './queue-key.js';

/**
 * Pick calls of a status-wide move kept in flight. Redis runs every call already in a connection's
 * buffer before it reads another client's command, so a PING waits behind all the calls in flight; a
 * pick call leaves the service almost nothing to do, so two keep Redis as busy as four did (100 jobs
 * a call, 200k-job A/B on one store: PING p99 15.7 ms at two, 25.4 at four, jobs/s no lower).
 */
export const pickCallsInFlight = 2;

/** A job a pick left where it was: its id and why (`numeric`: a kept id BullMQ would not take as custom). */
export type PickedStaying = { jobId: string; verdict: PlainVerdict | 'numeric' };

export interface StatusPick {
  /** Jobs the call found at the head (fewer than asked: the status has no more past the held ones). */
  found: number;
  staying: PickedStaying[];
}

export interface StatusMoveEnds {
  client: StoreClient;
  from: QueueRef;
  to: QueueRef;
  status: string;
  /** Who moves: names the move's place in the status (and its tally, if `tallied`). */
  mover: string;
  tallied: boolean;
  /** What moved jobs' ids start with ('' keeps them). */
  idPrefix: string;
}

/** A status-wide move within one standalone store, its ids picked by the store (see pickScript). */
export interface StatusMove {
  /** One call: up to `count` jobs from the head; `at` is where it starts if the move holds no place yet. */
  pick(count: number, at: number): Promise<StatusPick>;
  /** Carries the jobs picks left `rewrite` as full orders, freeing their places in the same step. */
  carryHeld(orders: MoveOrder[]): Promise<MoveVerdict[]>;
  /** The move's count of refused jobs and its pending `rewrite` jobs, if it holds a place. */
  place(): Promise<{ refused: number; pending: string[] } | undefined>;
  /** Lets go of the place (the move is over). */
  forget(): Promise<void>;
}

/** The status move of `ends`, or undefined when the status is not one a move takes jobs from. */
export function statusMove(ends: StatusMoveEnds): StatusMove | undefined {
  if (!(ends.status in keyByStatus)) return undefined;
  const held = moveHeldKey(ends.from, ends.mover);
  const tally = ends.tallied ? moveTallyKey(ends.to, ends.mover) : '';
  return {
    pick: (count, at) => pick(ends, count, at),
    carryHeld: (orders) => moveWithinStore(ends.client, ends.from, ends.to, orders, tally, held),
    async place() {
      const fields = await ends.client.hgetall(held);
      if (fields.at === undefined) return undefined;
      const pending = Object.keys(fields).filter((name) => name.startsWith('p:'));
      return { refused: Number(fields.refused ?? 0), pending: pending.map((name) => name.slice(2)) };
    },
    forget: async () => void (await ends.client.del(held)),
  };
}

/** One pick call (pickScript). */
async function pick(ends: StatusMoveEnds, count: number, at: number): Promise<StatusPick> {
  const status = ends.status as JobStatus;
  const [key, list] = [keyByStatus[status], listStatuses.has(status)];
  const tally = ends.tallied ? moveTallyKey(ends.to, ends.mover) : '';
  const [found, staying] = (await pickScript.run(
    ends.client,
    [queueKey(ends.from, 'meta')],
    [
      queueKey(ends.from, ''),
      queueKey(ends.to, ''),
      tally,
      moveHeldKey(ends.from, ends.mover),
      key,
      list ? '1' : '0',
    ].concat([String(count), ends.idPrefix, String(at)]),
  )) as [number, string[]];
  const stayed: PickedStaying[] = [];
  for (let index = 0; index < staying.length; index += 2)
    stayed.push({ jobId: staying[index]!, verdict: staying[index + 1] as PickedStaying['verdict'] });
  return { found, staying: stayed };
}
