import type { StoreClient } from '../stores/redis-client.js';
import { LuaScript } from './lua-script.js';
import { moveJobLua } from './move-job-lua.js';
import { keyed, runPipelined } from './pipelined.js';
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

/**
 * Copy and removal in one script per batch: Redis runs it whole or not at all, so however the
 * service dies, each job is in exactly one of the two queues, and whatever a worker on the target
 * does with the copy, the source no longer holds it. Two moves of the same job: the second finds
 * it `missing`. With a tally key (a task's), the count of jobs moved grows in the same step, so a
 * task resumed after a crash still reports every job it moved. ARGV: source base, target base,
 * tally key or '', then per job id, target id, read opts, moved opts.
 */
const script = new LuaScript(`${moveJobLua}
local src, dst, tally = ARGV[1], ARGV[2], ARGV[3]
local verdicts = {}
local moved = 0
for i = 4, #ARGV, 4 do
  local id, targetId = ARGV[i], ARGV[i + 1]
  local job = readJob(src, id)
  local verdict = sourceVerdict(src, id, job, ARGV[i + 2])
  if not verdict and rcall('EXISTS', dst .. targetId) == 1 then verdict = 'taken' end
  if not verdict then
    insertJob(dst, targetId, job, ARGV[i + 3], rcall('LRANGE', src .. id .. ':logs', 0, -1))
    removeJob(src, id, job)
    verdict = 'moved'
    moved = moved + 1
  end
  verdicts[#verdicts + 1] = verdict
end
if tally ~= '' and moved > 0 then
  rcall('INCRBY', tally, moved)
  rcall('EXPIRE', tally, ${tallyTtlSeconds})
end
return verdicts`);

/** Jobs per script call: each call holds Redis for its length (about 1 ms per 20 jobs). */
export const movesPerScript = 100;

/**
 * Script calls of one batch kept in flight at once: Redis starts the next as soon as one ends instead of
 * waiting for the service's turn on a busy CPU to send it (as a task's retry and purge calls do, see
 * call-window.ts); each is still a call of its own, so other clients are served between them.
 */
export const moveCallsInFlight = 4;

/**
 * Moves jobs between two queues of one (non-cluster) store, each atomically; one verdict per order.
 * The calls carry disjoint jobs, so their order in Redis changes nothing; the verdicts keep the orders'.
 */
export async function moveWithinStore(
  client: StoreClient,
  from: QueueRef,
  to: QueueRef,
  orders: MoveOrder[],
  tally = '',
): Promise<MoveVerdict[]> {
  const calls: MoveOrder[][] = [];
  for (let start = 0; start < orders.length; start += movesPerScript)
    calls.push(orders.slice(start, start + movesPerScript));
  const answers: MoveVerdict[][] = [];
  let next = 0;
  let stopped = false;
  const sender = async () => {
    for (let index = next++; index < calls.length && !stopped; index = next++) {
      const args = calls[index]!.flatMap((order) => [order.jobId, order.targetId, order.readOpts, order.movedOpts]);
      answers[index] = (await script
        .run(client, [queueKey(from, 'meta')], [queueKey(from, ''), queueKey(to, ''), tally, ...args])
        .catch((error: unknown) => {
          stopped = true;
          throw error;
        })) as MoveVerdict[];
    }
  };
  // After a failure no call is sent, and every sender is awaited before it is rethrown: nothing runs behind it.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(moveCallsInFlight, calls.length) }, sender));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return answers.flat();
}

/** The raw options of each job (null when it is gone), read in one round trip. */
export async function readJobOpts(client: StoreClient, ref: QueueRef, jobIds: string[]): Promise<Array<string | null>> {
  if (jobIds.length === 0) return [];
  const replies = await runPipelined(
    client,
    jobIds.map((id) => keyed('hget', queueKey(ref, id), 'opts')),
  );
  return replies.map((reply) => (typeof reply === 'string' ? reply : null));
}
