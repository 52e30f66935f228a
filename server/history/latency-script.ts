import { LuaScript } from '../bullmq/lua-script.js';

/**
 * Per queue (KEYS: meta keys), the newest jobs finished after ARGV[1] (ms, exclusive), at most
 * ARGV[2] of them: the newest ARGV[2] of `completed` and of `failed` (both scored by finish time),
 * merged by that time and cut to ARGV[2]. For each, processing = finishedOn - processedOn and
 * wait = processedOn - timestamp from one HMGET; sorted, and the nearest-rank p50/p95/p99 taken.
 * Reply: one packed string of little-endian doubles, 8 per queue: processing times measured, their
 * p50 p95 p99, then wait times measured, their p50 p95 p99 (-1 where none was). Read-only; cost per
 * queue: two ranged reads and at most ARGV[2] HMGETs, whatever the size of the sets.
 */
export const latencyScript = new LuaScript(`local since, cap = '(' .. ARGV[1], tonumber(ARGV[2])
local function rank(sorted, p)
  local n = #sorted
  if n == 0 then return -1 end
  return sorted[math.max(1, math.ceil(p * n / 100))]
end
local parts = {}
for k = 1, #KEYS do
  local q = string.sub(KEYS[k], 1, -5)
  local c = redis.call('ZREVRANGEBYSCORE', q .. 'completed', '+inf', since, 'WITHSCORES', 'LIMIT', 0, cap)
  local f = redis.call('ZREVRANGEBYSCORE', q .. 'failed', '+inf', since, 'WITHSCORES', 'LIMIT', 0, cap)
  local processing, waiting, i, j, taken = {}, {}, 1, 1, 0
  while taken < cap and (i <= #c or j <= #f) do
    local id
    if j > #f or (i <= #c and tonumber(c[i + 1]) >= tonumber(f[j + 1])) then id = c[i]; i = i + 2 else id = f[j]; j = j + 2 end
    taken = taken + 1
    local v = redis.call('HMGET', q .. id, 'timestamp', 'processedOn', 'finishedOn')
    local added, started, finished = tonumber(v[1]), tonumber(v[2]), tonumber(v[3])
    if started and finished and finished >= started then processing[#processing + 1] = finished - started end
    if added and started and started >= added then waiting[#waiting + 1] = started - added end
  end
  table.sort(processing)
  table.sort(waiting)
  parts[k] = struct.pack('<dddddddd', #processing, rank(processing, 50), rank(processing, 95), rank(processing, 99), #waiting, rank(waiting, 50), rank(waiting, 95), rank(waiting, 99))
end
return table.concat(parts)`);
