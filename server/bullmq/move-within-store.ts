import type { StoreClient } from '../stores/redis-client.js';
import { eachInWindow } from '../tasks/call-window.js';
import { LuaScript } from './lua-script.js';
import { moveJobLua } from './move-job-lua.js';
import { queueKey, type QueueRef } from './queue-key.js';

/** One job to move: its id, the id it takes in the target, its options as read and as the target gets them. */
export interface MoveOrder {
  jobId: string;
  targetId: string;
  readOpts: string;
  movedOpts: string;
}

/**
 * What became of one job: `moved`; or it stayed where it was because it was `missing` (gone, or
 * moved by another move first), `locked` (a worker holds it), in a `flow`, a job scheduler's next
 * run (`scheduled`), `changed` since it was read, or the target already holds its id (`taken`).
 */
export type MoveVerdict = 'moved' | 'missing' | 'locked' | 'flow' | 'scheduled' | 'changed' | 'taken';

/** How long a task's tally of moved jobs is kept after its last batch. */
export const tallyTtlSeconds = 86_400;

/**
 * The key counting a mover's moved jobs, beside the target queue's keys (one cluster slot with
 * them, since the scripts that count also write the queue).
 */
export const moveTallyKey = (target: QueueRef, mover: string) => queueKey(target, `bullpen-move-tally:${mover}`);

/** The end of a carrying script: its moved jobs added to the task's tally, if it keeps one (`tally` not ''). */
export const tallyLua = `
if tally ~= '' and moved > 0 then
  rcall('INCRBY', tally, moved)
  rcall('EXPIRE', tally, ${tallyTtlSeconds})
end`;

/**
 * The key holding a status-wide move's place in its status (`at`: how many jobs at the head it left
 * there, refused or still to be carried by the service) and its count of refused jobs (`refused`).
 * Beside the source's keys; it outlives a crash of the service, so a resumed run starts where the
 * dead one got to.
 */
export const moveHeldKey = (source: QueueRef, mover: string) => queueKey(source, `bullpen-move-held:${mover}`);

/** The end of a script that frees places: `freed` jobs gone from the head, `refusedNow` more refused. */
export const heldLua = `
if held ~= '' and (freed ~= 0 or refusedNow > 0) then
  if freed ~= 0 then rcall('HINCRBY', held, 'at', -freed) end
  if refusedNow > 0 then rcall('HINCRBY', held, 'refused', refusedNow) end
  rcall('EXPIRE', held, ${tallyTtlSeconds})
end`;

/**
 * Copy and removal in one script per batch: Redis runs it whole or not at all, so however the
 * service dies, each job is in exactly one of the two queues, and whatever a worker on the target
 * does with the copy, the source no longer holds it. Two moves of the same job: the second finds
 * it `missing`. With a tally key (a task's), the count of jobs moved grows in the same step, so a
 * task resumed after a crash still reports every job it moved. With a held key (a status-wide
 * move's, see pickFromStatus), the places of the jobs that left the status are freed in the same step.
 * ARGV: source base, target base, tally key or '', held key or '', then per job id, target id, read
 * opts, moved opts. Answers only the jobs not moved, as their place among the call's jobs (from 1) and
 * verdict: nearly always nothing.
 */
const script = new LuaScript(`${moveJobLua}
local src, dst, tally, held = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local staying = {}
local moved, freed, refusedNow = 0, 0, 0
for i = 5, #ARGV, 4 do
  local id, targetId = ARGV[i], ARGV[i + 1]
  local job = readJob(src, id)
  local verdict = sourceVerdict(src, id, job, ARGV[i + 2])
  if held ~= '' then rcall('HDEL', held, 'p:' .. id) end
  if not verdict then verdict = carryJob(src, dst, id, targetId, job, ARGV[i + 3]) end
  if not verdict then
    moved = moved + 1
    freed = freed + 1
  else
    staying[#staying + 1] = (i - 5) / 4 + 1
    staying[#staying + 1] = verdict
    if verdict == 'missing' then freed = freed + 1 else refusedNow = refusedNow + 1 end
  end
end
${tallyLua}
${heldLua}
return staying`);

/** Jobs per script call: each call holds Redis for its length (about 1 ms per 20 jobs). */
export const movesPerScript = 100;

/**
 * Script calls of one batch kept in flight at once: Redis starts the next as soon as one ends instead of
 * waiting for the service's turn on a busy CPU to send it (as a task's retry and purge calls do, see
 * call-window.ts); each is still a call of its own, so other clients are served between them.
 */
export const moveCallsInFlight = 4;

/**
 * Sends `orders` to a carrying script (ARGV: source base, target base, tally key, held key, then `argsOf` each
 * order; answer: the jobs that stay, as place from 1 and verdict) in calls of `movesPerScript`,
 * `moveCallsInFlight` at once. The calls carry disjoint jobs, so their order in Redis changes nothing;
 * the verdicts keep the orders'.
 */
export async function carryInCalls<Order, Verdict extends string>(
  client: StoreClient,
  script: LuaScript,
  ends: { from: QueueRef; to: QueueRef; tally: string; held?: string },
  orders: Order[],
  argsOf: (order: Order) => string[],
): Promise<Array<Verdict | 'moved'>> {
  const starts = Array.from({ length: Math.ceil(orders.length / movesPerScript) }, (_, call) => call * movesPerScript);
  const verdicts: Array<Verdict | 'moved'> = new Array(orders.length);
  const bases = [queueKey(ends.from, ''), queueKey(ends.to, ''), ends.tally, ends.held ?? ''];
  await eachInWindow(starts, moveCallsInFlight, async (start) => {
    const call = orders.slice(start, start + movesPerScript);
    const staying = (await script.run(
      client,
      [queueKey(ends.from, 'meta')],
      [...bases, ...call.flatMap(argsOf)],
    )) as Array<number | Verdict>;
    verdicts.fill('moved', start, start + call.length);
    for (let at = 0; at < staying.length; at += 2)
      verdicts[start + (staying[at] as number) - 1] = staying[at + 1] as Verdict;
  });
  return verdicts;
}

/** Moves jobs between two queues of one (non-cluster) store, each atomically; one verdict per order. */
export const moveWithinStore = (
  client: StoreClient,
  from: QueueRef,
  to: QueueRef,
  orders: MoveOrder[],
  tally = '',
  held = '',
): Promise<MoveVerdict[]> =>
  carryInCalls<MoveOrder, MoveVerdict>(client, script, { from, to, tally, held }, orders, (order) => [
    order.jobId,
    order.targetId,
    order.readOpts,
    order.movedOpts,
  ]);
