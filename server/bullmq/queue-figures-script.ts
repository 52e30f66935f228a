import { LuaScript } from './lua-script.js';

/**
 * The one read-only script that reads figures of many queues (list counts,
 * sorts, filters and totals, connection metrics, the Prometheus export, the
 * history sampler). KEYS are the queues' meta keys (a queue's other keys are
 * the meta key without `meta`). ARGV lists the figures, each as
 * `operation, keep ('each' | 'sum' | 'both'), argument, n, type1..typeN`;
 * a keep ending in `?` marks a figure whose key is usually missing (a
 * status most queues have no job in): when a queue has two or more such
 * figures, one EXISTS of all their keys comes first, and when none exists
 * they are all 0 without a lookup each (a lookup is the cost here: ~1 µs,
 * and one call for several keys saves the per-call overhead).
 * The reply is one string of little-endian doubles (struct.pack): queue by
 * queue, the value of every figure kept `each` (or `both`), then one sum per
 * figure over all the queues (0 for an `each` one). Packed, because an array
 * reply of 100,000 integers (10,000 queues × 10 figures) cost ~40 ms to
 * encode, send and decode, and garbage for every value; the packed string ~15 ms.
 *
 * Operations, on `<queue>:<type>`: llen, zcard; hexists (field = argument);
 * hnumber (HGET of the field, a number, 0 when missing); any (1 when one of
 * the types exists, tried in order and stopping at the first found, else 0:
 * Redis deletes an emptied list or sorted set, so 0 means all are empty, and
 * a busy queue costs one lookup); zcount-after (members scored above the
 * argument); lsum (sum of the first `argument` elements of a list); oldest
 * (the `argument` field of the job at the tail of a list, 0 when empty:
 * BullMQ pushes new jobs on the left of `wait`).
 * Never BullMQ's own getCounts: it may write (it pops legacy markers).
 */
export const queueFiguresScript = new LuaScript(`local ops, firsts, args, each, sum, types = {}, {}, {}, {}, {}, {}
local rare, rareAt, rareKeys, rares = {}, {}, {}, 0
local at, n = 1, 0
while at <= #ARGV do
  local count = tonumber(ARGV[at + 3])
  n = n + 1
  ops[n], args[n], firsts[n], types[n] = ARGV[at], ARGV[at + 2], ARGV[at + 4], { unpack(ARGV, at + 4, at + 3 + count) }
  local keep = ARGV[at + 1]
  if string.sub(keep, -1) == '?' then
    keep = string.sub(keep, 1, -2)
    rares = rares + 1
    rare[n], rareAt[rares] = true, n
  end
  each[n], sum[n] = keep ~= 'sum', keep ~= 'each'
  -- Arguments prepared once, as strings: a number handed to redis.call is formatted again on every call.
  if ops[n] == 'lsum' then args[n] = tostring(tonumber(args[n]) - 1)
  elseif ops[n] == 'zcount-after' then args[n] = '(' .. args[n] end
  at = at + 4 + count
end
local sums, parts, row, kept = {}, {}, {}, 0
for f = 1, n do
  sums[f] = 0
  if each[f] then kept = kept + 1 end
end
local rowFormat = '<' .. string.rep('d', kept)
for k = 1, #KEYS do
  local q = string.sub(KEYS[k], 1, -5)
  local r, none = 0, false
  if rares > 1 then
    for i = 1, rares do rareKeys[i] = q .. firsts[rareAt[i]] end
    none = redis.call('EXISTS', unpack(rareKeys, 1, rares)) == 0
  end
  for f = 1, n do
    local op, arg = ops[f], args[f]
    -- A key name costs a string of its own: none is made for a figure already known to be 0.
    local key = (none and rare[f]) and '' or q .. firsts[f]
    local value = 0
    if key == '' then value = 0
    elseif op == 'zcard' then value = redis.call('ZCARD', key)
    elseif op == 'llen' then value = redis.call('LLEN', key)
    elseif op == 'hexists' then value = redis.call('HEXISTS', key, arg)
    elseif op == 'hnumber' then value = tonumber(redis.call('HGET', key, arg) or '0') or 0
    elseif op == 'zcount-after' then value = redis.call('ZCOUNT', key, arg, '+inf')
    elseif op == 'any' then
      for t = 1, #types[f] do
        if redis.call('EXISTS', q .. types[f][t]) == 1 then value = 1 break end
      end
    elseif op == 'lsum' then
      for _, point in ipairs(redis.call('LRANGE', key, '0', arg)) do value = value + (tonumber(point) or 0) end
    elseif op == 'oldest' then
      local tail = redis.call('LINDEX', key, -1)
      if tail then value = tonumber(redis.call('HGET', q .. tail, arg) or '0') or 0 end
    end
    if each[f] then r = r + 1 row[r] = value end
    if sum[f] then sums[f] = sums[f] + value end
  end
  if kept > 0 then parts[k] = struct.pack(rowFormat, unpack(row, 1, kept)) end
end
parts[#parts + 1] = struct.pack('<' .. string.rep('d', n), unpack(sums, 1, n))
return table.concat(parts)`);
