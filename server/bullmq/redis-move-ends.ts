import type { StoreClient } from '../stores/redis-client.js';
import { LuaScript } from './lua-script.js';
import { moveJobLua } from './move-job-lua.js';
import type { MoveSource, MoveTarget, Parcel } from './move-across-stores.js';
import type { MoveVerdict } from './move-within-store.js';
import { moveTallyKey } from './move-within-store.js';
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
  else out[#out + 1] = { '', job.name or '', job.data or '{}', job.timestamp or '0', tostring(job.priority), job.atm or '', job.ats or '', rcall('LRANGE', src .. id .. ':logs', 0, -1) } end
end
return out`);

/**
 * The target's side, one script: the move journal (a hash of the target store, one field per
 * source job and creation time, naming the move that delivered it) decides first. Delivered by
 * this move before (a resumed task): never added again, whatever a worker did with the copy since.
 * Delivered by another move: not ours. Otherwise the job is added and the journal says so, in the
 * same atomic step. ARGV: target base, journal key, mover, ttl, tally key (the mover's count of delivered jobs, or ''), then per job 9 fields and logs count, logs.
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
    if tally ~= '' then rcall('INCR', tally) end
    out[#out + 1] = 'delivered'
  end
  i = i + 10 + logCount
end
rcall('EXPIRE', journal, ARGV[4])
if tally ~= '' then rcall('EXPIRE', tally, ARGV[4]) end
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

/**
 * The target's side when the source copy could not leave after all (a worker took it between delivery
 * and release): the copy is taken back while no worker holds it yet, and the journal forgets it.
 * ARGV: target base, journal key, mover, tally key or '', then per job its journal field and target id.
 */
const recall = new LuaScript(`${moveJobLua}
local dst, journal, mover, tally = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local out = {}
for i = 5, #ARGV, 2 do
  local field, id = ARGV[i], ARGV[i + 1]
  local waiting = rcall('LPOS', dst .. 'wait', id) or rcall('ZSCORE', dst .. 'prioritized', id)
  if rcall('HGET', journal, field) == mover and waiting and rcall('EXISTS', dst .. id .. ':lock') == 0 then
    removeJob(dst, id, readJob(dst, id))
    rcall('HDEL', journal, field)
    if tally ~= '' then rcall('DECR', tally) end
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out`);

export interface StoreEnd {
  client: StoreClient;
  ref: QueueRef;
}

/** Where deliveries to a target queue are journaled: beside its keys (one cluster slot), per source connection and queue. */
export const moveJournalKey = (target: QueueRef, sourceConnectionId: string, source: QueueRef) =>
  queueKey(target, `bullpen-move-journal:${sourceConnectionId}:${queueKey(source, '')}`);

type Inspected = [
  verdict: string,
  name?: string,
  data?: string,
  timestamp?: string,
  priority?: string,
  atm?: string,
  ats?: string,
  logs?: string[],
];

/** A Redis queue as a move's source: inspect and release run one script each (KEYS[1] routes it on a cluster). */
export function redisMoveSource({ client, ref }: StoreEnd): Omit<MoveSource, 'readOpts'> {
  const routed = [queueKey(ref, 'meta')];
  return {
    async inspect(orders) {
      const replies = (await inspect.run(client, routed, [
        queueKey(ref, ''),
        ...orders.flatMap((order) => [order.jobId, order.readOpts]),
      ])) as Inspected[];
      return replies.map(([verdict, name, data, timestamp, priority, atm, ats, logs = []]) =>
        verdict
          ? (verdict as MoveVerdict)
          : { name: name!, data: data!, timestamp: timestamp!, priority: priority!, atm: atm!, ats: ats!, logs },
      );
    },
    async release(orders) {
      if (orders.length === 0) return [];
      return (await release.run(client, routed, [
        queueKey(ref, ''),
        ...orders.flatMap((order) => [order.jobId, order.readOpts]),
      ])) as MoveVerdict[];
    },
  };
}

/** A Redis queue as a move's target, its deliveries journaled in `journal` (see moveJournalKey). */
export function redisMoveTarget({ client, ref }: StoreEnd, journal: string): Omit<MoveTarget, 'tally'> {
  return {
    async deliver(parcels: Parcel[], mover, tallied) {
      const args = parcels.flatMap(({ order, job }) => [
        `${order.jobId}:${job.timestamp}`,
        order.targetId,
        job.name,
        job.data,
        order.movedOpts,
        job.timestamp,
        job.priority,
        job.atm,
        job.ats,
        job.logs.length,
        ...job.logs,
      ]);
      const tally = tallied ? moveTallyKey(ref, mover) : '';
      return (await deliver.run(
        client,
        [queueKey(ref, 'meta')],
        [queueKey(ref, ''), journal, mover, journalTtlSeconds, tally, ...args],
      )) as Array<'delivered' | 'missing' | 'taken'>;
    },
    async recall(parcels: Parcel[], mover, tallied) {
      if (parcels.length === 0) return [];
      const args = parcels.flatMap(({ order, job }) => [`${order.jobId}:${job.timestamp}`, order.targetId]);
      const replies = (await recall.run(
        client,
        [queueKey(ref, 'meta')],
        [queueKey(ref, ''), journal, mover, tallied ? moveTallyKey(ref, mover) : '', ...args],
      )) as number[];
      return replies.map((reply) => reply === 1);
    },
  };
}
