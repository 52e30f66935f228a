import type { StoreClient } from '../stores/redis-client.js';
import { LuaScript } from './lua-script.js';
import { moveJobLua } from './move-job-lua.js';
import type { MoveOrder, MoveVerdict } from './move-within-store.js';
import { moveTallyKey, movesPerScript } from './move-within-store.js';
import { queueKey, type QueueRef } from './queue-key.js';

/** How long a delivery stays in the target's move journal: far longer than any move's batch, retry or resume. */
export const journalTtlSeconds = 86_400;

/** The source's side, read in one script: a verdict when the job may not move, else its fields and logs. */
const inspect = new LuaScript(`${moveJobLua}
local src = ARGV[1]
local out = {}
for i = 2, #ARGV, 2 do
  local id = ARGV[i]
  local job = readJob(src, id)
  local verdict = sourceVerdict(src, id, job, ARGV[i + 1])
  if verdict then out[#out + 1] = { verdict }
  else out[#out + 1] = { '', job.name, job.data or '{}', job.timestamp or '0', tostring(job.priority), job.atm or '', job.ats or '', rcall('LRANGE', src .. id .. ':logs', 0, -1) } end
end
return out`);

/**
 * The target's side, one script: the move journal (a hash of the target store, one field per
 * source job and creation time, naming the move that delivered it) decides first. Delivered by
 * this move before (a resumed task): never added again, whatever a worker did with the copy since.
 * Delivered by another move: not ours. Otherwise the job is added and the journal says so, in the
 * same atomic step. ARGV: target base, journal key, mover, ttl, tally key (the mover's count of delivered jobs), then per job 9 fields and logs count, logs.
 */
const deliver = new LuaScript(`${moveJobLua}
local dst, journal, mover, tally = ARGV[1], ARGV[2], ARGV[3], ARGV[5]
local out = {}
local i = 6
while i <= #ARGV do
  local field, targetId = ARGV[i], ARGV[i + 1]
  local job = { name = ARGV[i + 2], data = ARGV[i + 3], timestamp = ARGV[i + 5], priority = tonumber(ARGV[i + 6]) or 0 }
  if ARGV[i + 7] ~= '' then job.atm = ARGV[i + 7] end
  if ARGV[i + 8] ~= '' then job.ats = ARGV[i + 8] end
  local logCount = tonumber(ARGV[i + 9])
  local logs = {}
  for l = 1, logCount do logs[l] = ARGV[i + 9 + l] end
  local by = rcall('HGET', journal, field)
  if by == mover then out[#out + 1] = 'delivered'
  elseif by then out[#out + 1] = 'missing'
  elseif rcall('EXISTS', dst .. targetId) == 1 then out[#out + 1] = 'taken'
  else
    insertJob(dst, targetId, job, ARGV[i + 4], logs)
    rcall('HSET', journal, field, mover)
    rcall('INCR', tally)
    out[#out + 1] = 'delivered'
  end
  i = i + 10 + logCount
end
rcall('EXPIRE', journal, ARGV[4])
rcall('EXPIRE', tally, ARGV[4])
return out`);

/** The source's side after delivery: the job leaves unless a worker took it meanwhile. ARGV: source base, then id, read opts. */
const release = new LuaScript(`${moveJobLua}
local src = ARGV[1]
local out = {}
for i = 2, #ARGV, 2 do
  local id = ARGV[i]
  local job = readJob(src, id)
  local verdict = sourceVerdict(src, id, job, ARGV[i + 1])
  if not verdict then removeJob(src, id, job) verdict = 'moved' end
  out[#out + 1] = verdict
end
return out`);

export interface StoreEnd {
  client: StoreClient;
  ref: QueueRef;
}

/** Where deliveries to a target queue are journaled: beside its keys (one cluster slot), per source connection and queue. */
export const moveJournalKey = (target: QueueRef, sourceConnectionId: string, source: QueueRef) =>
  queueKey(target, `bullpen-move-journal:${sourceConnectionId}:${queueKey(source, '')}`);

/**
 * Moves jobs between two stores (no script spans both): inspect the source, deliver to the target
 * under the journal, then release the source. A crash anywhere leaves jobs the journal marks
 * delivered by this `mover` (a task id), which a resumed run only releases: nothing is added twice.
 */
export async function moveAcrossStores(ends: { source: StoreEnd; target: StoreEnd; journal: string; mover: string }, orders: MoveOrder[]): Promise<MoveVerdict[]> {
  const verdicts: MoveVerdict[] = [];
  for (let start = 0; start < orders.length; start += movesPerScript) verdicts.push(...(await moveBatch(ends, orders.slice(start, start + movesPerScript))));
  return verdicts;
}

type Inspected = [verdict: string, name?: string, data?: string, timestamp?: string, priority?: string, atm?: string, ats?: string, logs?: string[]];

async function moveBatch({ source, target, journal, mover }: { source: StoreEnd; target: StoreEnd; journal: string; mover: string }, orders: MoveOrder[]): Promise<MoveVerdict[]> {
  const inspected = (await inspect.run(source.client, [queueKey(source.ref, 'meta')], [queueKey(source.ref, ''), ...orders.flatMap((order) => [order.jobId, order.readOpts])])) as Inspected[];
  const verdicts: MoveVerdict[] = inspected.map(([verdict]) => (verdict || 'moved') as MoveVerdict);
  const movable = orders.flatMap((order, index) => (verdicts[index] === 'moved' ? [{ order, fields: inspected[index]! }] : []));
  if (movable.length === 0) return verdicts;
  const args = movable.flatMap(({ order, fields: [, name, data, timestamp, priority, atm, ats, logs = []] }) => [
    `${order.jobId}:${timestamp}`, order.targetId, name!, data!, order.movedOpts, timestamp!, priority!, atm!, ats!, logs.length, ...logs,
  ]);
  const delivered = (await deliver.run(target.client, [queueKey(target.ref, 'meta')], [queueKey(target.ref, ''), journal, mover, journalTtlSeconds, moveTallyKey(target.ref, mover), ...args])) as string[];
  // Delivered by this move (now or by the run that died): the source copy leaves. Whatever the release answers
  // (gone already: an earlier run released it), the job is in the target once: moved, by this move.
  const releasing = movable.filter((_, index) => delivered[index] === 'delivered' || delivered[index] === 'missing');
  if (releasing.length > 0) await release.run(source.client, [queueKey(source.ref, 'meta')], [queueKey(source.ref, ''), ...releasing.flatMap(({ order }) => [order.jobId, order.readOpts])]);
  movable.forEach(({ order }, index) => {
    const verdict = delivered[index];
    verdicts[orders.indexOf(order)] = verdict === 'delivered' ? 'moved' : (verdict as MoveVerdict);
  });
  return verdicts;
}
