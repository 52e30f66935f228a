import type { StoreClient } from '../stores/redis-client.js';
import { LuaScript } from './lua-script.js';
import { moveJobLua } from './move-job-lua.js';
import { movedOptsLua } from './moved-opts-lua.js';
import { carryInCalls, tallyLua, type MoveVerdict } from './move-within-store.js';
import type { QueueRef } from './queue-key.js';

/** A job to move whose options the store rewrites itself: its id and the id it takes in the target. */
export interface PlainOrder {
  jobId: string;
  targetId: string;
}

/** A plain order's verdict: a move's, or `rewrite` (its options need parsing: the service rewrites them; nothing changed). */
export type PlainVerdict = MoveVerdict | 'rewrite';

/**
 * The move script of moveWithinStore for jobs sent by id alone: the options the copy gets are made
 * here, from the stored ones in the same atomic step (so a job cannot change between a read and the
 * move), as the service's movedOpts does (movedOptsLua). A job whose options are not as BullMQ writes
 * them stays untouched with `rewrite`: the service reads, parses and moves it as a full order. ARGV:
 * source base, target base, tally key or '', held key (unused), then per job id, target id, target id
 * as a JSON string.
 */
const plainScript = new LuaScript(`${moveJobLua}${movedOptsLua}
local src, dst, tally = ARGV[1], ARGV[2], ARGV[3]
local staying = {}
local moved = 0
for i = 5, #ARGV, 3 do
  local id, targetId = ARGV[i], ARGV[i + 1]
  local job = readJob(src, id)
  local verdict = sourceVerdict(src, id, job, job.opts or '')
  local opts
  if not verdict then
    opts = movedOptsText(job.opts, ARGV[i + 2])
    if not opts then verdict = 'rewrite' end
  end
  if not verdict then verdict = carryJob(src, dst, id, targetId, job, opts) end
  if not verdict then
    moved = moved + 1
  else
    staying[#staying + 1] = (i - 5) / 3 + 1
    staying[#staying + 1] = verdict
  end
end
${tallyLua}
return staying`);

/**
 * Moves jobs between two queues of one (non-cluster) store by id alone, each atomically as
 * moveWithinStore does, with no read of their options beforehand and none sent back: the store does
 * what the bench's floor does, and the service sends ids. One verdict per order.
 */
export const moveWithinStorePlain = (
  client: StoreClient,
  from: QueueRef,
  to: QueueRef,
  orders: PlainOrder[],
  tally = '',
): Promise<PlainVerdict[]> =>
  carryInCalls<PlainOrder, PlainVerdict>(client, plainScript, { from, to, tally }, orders, (order) => [
    order.jobId,
    order.targetId,
    JSON.stringify(order.targetId),
  ]);
