import type { Redis } from 'ioredis';
import { prefix } from '../seed.js';
import { moveJobLua } from '../../../server/bullmq/move-job-lua.js';

/** Jobs per call of the floors: BullMQ's own default batch for moveJobsToWait and clean. */
export const floorBatch = 1000;

/**
 * The least a retry of failed jobs can do, as BullMQ's moveJobsToWait leaves them: the job hash loses its
 * finish fields, a `waiting` event per job goes to the stream, the ids leave `failed` for `wait`, and the
 * marker wakes workers; a flow's child goes back to its parent's dependencies. No pause or priority handling:
 * the floor's queue has neither.
 */
const retryLua = `
local jobs = redis.call('ZRANGEBYSCORE', KEYS[1], 0, ARGV[2], 'LIMIT', 0, tonumber(ARGV[1]))
if #jobs == 0 then return 0 end
for _, id in ipairs(jobs) do
  local jobKey = ARGV[3] .. id
  redis.call('HDEL', jobKey, 'finishedOn', 'processedOn', 'failedReason')
  -- A child of a flow goes back to its parent's dependencies (the floor's jobs have no parent: one HGET).
  local parentKey = redis.call('HGET', jobKey, 'parentKey')
  if parentKey and redis.call('ZREM', parentKey .. ':unsuccessful', jobKey) + redis.call('HDEL', parentKey .. ':failed', jobKey) > 0 then
    redis.call('SADD', parentKey .. ':dependencies', jobKey)
  end
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', 10000, '*', 'event', 'waiting', 'jobId', id, 'prev', 'failed')
end
redis.call('ZREM', KEYS[1], unpack(jobs))
redis.call('LPUSH', KEYS[2], unpack(jobs))
redis.call('ZADD', KEYS[4], 0, '0')
return #jobs`;

/**
 * The least a purge of a finished set can do and still remove what BullMQ's clean removes: every key a job
 * may own (its hash, logs, and the four a parent keeps of its children, as BullMQ's removeJobKeys deletes
 * them, one DEL a job), its parent and deduplication id looked at (HMGET: a child leaves its parent's
 * dependencies, a deduplication key goes; the floor's jobs have neither), the id gone from the set. A delete
 * of the hash and logs alone left a parent's keys behind: not a purge, and ~3 µs a job cheaper.
 */
const purgeLua = `
local jobs = redis.call('ZRANGEBYSCORE', KEYS[1], 0, ARGV[2], 'LIMIT', 0, tonumber(ARGV[1]))
if #jobs == 0 then return 0 end
for _, id in ipairs(jobs) do
  local jobKey = ARGV[3] .. id
  redis.call('HMGET', jobKey, 'parentKey', 'deid')
  redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':dependencies', jobKey .. ':processed', jobKey .. ':failed', jobKey .. ':unsuccessful')
end
redis.call('ZREM', KEYS[1], unpack(jobs))
return #jobs`;

const key = (queue: string, suffix: string) => `${prefix}:${queue}:${suffix}`;

/** Calls `lua` from a bare Node loop, `floorBatch` jobs a call, one call at a time, until it acts on none. */
async function loop(redis: Redis, lua: string, keys: string[], queue: string): Promise<number> {
  const sha = (await redis.script('LOAD', lua)) as string;
  const before = Date.now();
  let total = 0;
  for (;;) {
    const acted = Number(await redis.evalsha(sha, keys.length, ...keys, floorBatch, before, key(queue, '')));
    if (acted === 0) return total;
    total += acted;
  }
}

/** Retries every failed job of `queue` (finished before the call) in batches of `floorBatch`. */
export const floorRetry = (redis: Redis, queue: string, status: 'failed') =>
  loop(redis, retryLua, [key(queue, status), key(queue, 'wait'), key(queue, 'events'), key(queue, 'marker')], queue);

/** Deletes every failed job of `queue` in batches of `floorBatch`. */
export const floorPurge = (redis: Redis, queue: string) => loop(redis, purgeLua, [key(queue, 'failed')], queue);

/**
 * The least a move of failed jobs to another queue of the store can do and still be Bullpen's move: the
 * same Lua pieces Bullpen's script runs (server/bullmq/move-job-lua.ts: the job read whole, the checks that
 * it may leave — gone, held by a worker, in a flow, a scheduler's next run — the target's id checked free,
 * the copy written as BullMQ adds a job with its logs and events, the source's keys removed as BullMQ's
 * remove does), each job under the same id Bullpen gives it (`<queue>-<id>`). Less than Bullpen: the ids are
 * picked inside the script (no ZRANGE before it, no ids sent) and the options go over unchanged (Bullpen
 * appends the new id in the script, or rewrites them in the service when they name a dropped option);
 * no tally of moved jobs.
 */
const moveLua = `${moveJobLua}
local src, dst = ARGV[3], ARGV[4]
local ids = rcall('ZRANGEBYSCORE', KEYS[1], 0, ARGV[2], 'LIMIT', 0, tonumber(ARGV[1]))
local moved = 0
for _, id in ipairs(ids) do
  local job = readJob(src, id)
  local targetId = ARGV[5] .. id
  local verdict = sourceVerdict(src, id, job, job.opts or '')
  if not verdict and rcall('EXISTS', dst .. targetId) == 0 then
    insertJob(dst, targetId, job, job.opts or '{}', rcall('LRANGE', src .. id .. ':logs', 0, -1))
    removeJob(src, id, job)
    moved = moved + 1
  end
end
return moved`;

/** Moves every failed job of `queue` (finished before the call) to `target` in batches of `floorBatch`. */
export async function floorMove(redis: Redis, queue: string, target: string): Promise<number> {
  const sha = (await redis.script('LOAD', moveLua)) as string;
  const before = Date.now();
  let total = 0;
  for (;;) {
    const args = [floorBatch, before, key(queue, ''), key(target, ''), `${queue}-`];
    const moved = Number(await redis.evalsha(sha, 1, key(queue, 'failed'), ...args));
    if (moved === 0) return total;
    total += moved;
  }
}
