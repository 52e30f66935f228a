import { jobKeySuffixes } from './clean-finished-set.js';

/**
 * Lua pieces of the move scripts, on BullMQ 6's key layout (`<queue key>:<id>` job hashes, the
 * status lists and sets beside them, `marker` waking blocked workers, `events` the stream).
 * Bases end with ':' (`<prefix>:<name>:`).
 *
 * `sourceVerdict` says whether a job may leave its queue, before anything changes: gone, held by
 * a worker, part of a flow, a scheduler's next run, or changed since its options were read.
 * `insertJob` writes a job as BullMQ's addStandardJob/addPrioritizedJob leave it (waiting, or
 * prioritized), keeping its name, data, options, creation time, attempts made and logs.
 * `removeJob` takes it out of whatever status holds it and deletes its keys, as BullMQ's remove does.
 * `carryJob` does both, with the job's logs, unless the target already holds the id (`taken`).
 */
export const moveJobLua = `
local rcall = redis.call
local function maxEventsOf(base)
  return rcall('HGET', base .. 'meta', 'opts.maxLenEvents') or 10000
end
local function pausedOrMaxed(base)
  local attrs = rcall('HMGET', base .. 'meta', 'paused', 'concurrency')
  if attrs[1] then return true end
  return attrs[2] and rcall('LLEN', base .. 'active') >= tonumber(attrs[2]) or false
end
local function readJob(base, id)
  local f = rcall('HMGET', base .. id, 'name', 'data', 'opts', 'timestamp', 'priority', 'atm', 'ats', 'parentKey', 'rjk', 'deid')
  return { name = f[1], data = f[2], opts = f[3], timestamp = f[4], priority = tonumber(f[5] or '0') or 0,
    atm = f[6], ats = f[7], parentKey = f[8], rjk = f[9], deid = f[10] }
end
local function sourceVerdict(base, id, job, expectedOpts)
  local key = base .. id
  if rcall('EXISTS', key) == 0 then return 'missing' end
  if rcall('EXISTS', key .. ':lock') == 1 or rcall('LPOS', base .. 'active', id) then return 'locked' end
  if job.parentKey or rcall('EXISTS', key .. ':dependencies') == 1 then return 'flow' end
  if job.rjk and rcall('ZSCORE', base .. 'delayed', id) then return 'scheduled' end
  if (job.opts or '') ~= expectedOpts then return 'changed' end
  return nil
end
local function insertJob(base, id, job, opts, logs)
  local key = base .. id
  local fields = { 'name', job.name or '', 'data', job.data or '{}', 'opts', opts, 'timestamp', job.timestamp or '0', 'delay', 0, 'priority', job.priority }
  if job.atm then fields[#fields + 1] = 'atm'; fields[#fields + 1] = job.atm end
  if job.ats then fields[#fields + 1] = 'ats'; fields[#fields + 1] = job.ats end
  rcall('HSET', key, unpack(fields))
  for i = 1, #logs, 1000 do rcall('RPUSH', key .. ':logs', unpack(logs, i, math.min(i + 999, #logs))) end
  local maxEvents = maxEventsOf(base)
  rcall('XADD', base .. 'events', 'MAXLEN', '~', maxEvents, '*', 'event', 'added', 'jobId', id, 'name', job.name or '')
  if job.priority > 0 then
    local counter = rcall('INCR', base .. 'pc')
    rcall('ZADD', base .. 'prioritized', job.priority * 0x100000000 + counter % 0x100000000, id)
  elseif string.find(opts, '"lifo":true', 1, true) then
    rcall('RPUSH', base .. 'wait', id)
  else
    rcall('LPUSH', base .. 'wait', id)
  end
  if not pausedOrMaxed(base) then rcall('ZADD', base .. 'marker', 0, '0') end
  rcall('XADD', base .. 'events', 'MAXLEN', '~', maxEvents, '*', 'event', 'waiting', 'jobId', id)
end
local function removeJob(base, id, job)
  local prev = 'unknown'
  for _, set in ipairs({ 'completed', 'failed', 'delayed', 'prioritized', 'waiting-children' }) do
    if rcall('ZREM', base .. set, id) == 1 then prev = set break end
  end
  if prev == 'unknown' then
    for _, list in ipairs({ 'wait', 'paused' }) do
      if rcall('LREM', base .. list, 1, id) == 1 then prev = list break end
    end
  end
  local key = base .. id
  rcall('DEL', ${jobKeySuffixes.map((suffix) => `key .. '${suffix}'`).join(', ')})
  if job.deid and rcall('GET', base .. 'de:' .. job.deid) == id then rcall('DEL', base .. 'de:' .. job.deid) end
  rcall('XADD', base .. 'events', 'MAXLEN', '~', maxEventsOf(base), '*', 'event', 'removed', 'jobId', id, 'prev', prev)
end
local function carryJob(src, dst, id, targetId, job, opts)
  if rcall('EXISTS', dst .. targetId) == 1 then return 'taken' end
  insertJob(dst, targetId, job, opts, rcall('LRANGE', src .. id .. ':logs', 0, -1))
  removeJob(src, id, job)
  return nil
end
`;
