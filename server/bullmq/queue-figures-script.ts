import { LuaScript } from './lua-script.js';

/**
 * The one read-only script that reads figures of many queues (list counts,
 * sorts, filters and totals, connection metrics, the Prometheus export, the
 * history sampler). KEYS are the queues' meta keys (a queue's other keys are
 * the meta key without `meta`); on a cluster, where a call's KEYS must share
 * a slot, the first queue's is KEYS[1] (it routes the call to its master) and
 * the others of that master follow in ARGV as `'@keys', n, key1..keyN`: a
 * script without a shebang may read any key its node serves (Redis 7 allows
 * such a script keys of several slots; a key the node does not serve, during
 * a resharding, is an error, and the caller then reads by hash tag). ARGV lists the figures, each as
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
 * argument, `since` or `since:until`, up to `until` included); lsum (sum of the first `argument` elements of a list); oldest
 * (the `argument` field of the job at the tail of a list, 0 when empty:
 * BullMQ pushes new jobs on the left of `wait`).
 * Never BullMQ's own getCounts: it may write (it pops legacy markers).
 */
export const queueFiguresScript = new LuaScript(`local ops, firsts, args, each, sum, types = {}, {}, {}, {}, {}, {}
local rare, rareAt, rareKeys, rares = {}, {}, {}, 0
local at, n, metaKeys = 1, 0, KEYS
-- '@keys', count, keys…: the queues' meta keys after KEYS[1] (which routes the call), for a cluster node's queues over many slots.
if ARGV[1] == '@keys' then
  local count = tonumber(ARGV[2])
  metaKeys = { KEYS[1] }
  for i = 1, count do metaKeys[i + 1] = ARGV[2 + i] end
  at = 3 + count
end
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
  elseif ops[n] == 'zcount-after' then
    local from, to = string.match(args[n], '^([^:]*):?(.*)$')
    args[n] = { '(' .. from, to ~= '' and to or '+inf' }
  end
  at = at + 4 + count
end
local sums, parts, row, kept = {}, {}, {}, 0
-- rowAt[f]: the figure's place in a queue's row (kept 'each'); all/common: figure lists, common without the rare ones.
local rowAt, all, common, rareInRow = {}, {}, {}, {}
for f = 1, n do
  sums[f] = 0
  all[f] = f
  if each[f] then
    kept = kept + 1
    rowAt[f] = kept
    if rare[f] then rareInRow[#rareInRow + 1] = kept end
  end
  if not rare[f] then common[#common + 1] = f end
end
local rowFormat = '<' .. string.rep('d', kept)
-- The commonest figures, counts, are one command on the key: named once here, called without otherFigure's dispatch.
local counted = {}
for f = 1, n do
  if ops[f] == 'zcard' then counted[f] = 'ZCARD' elseif ops[f] == 'llen' then counted[f] = 'LLEN' end
end
-- Counts summed only (the list's totals): the same reads with nothing kept per queue, in the tightest loop (~25% less script time at 10,000 queues).
local onlySummedCounts = kept == 0
for f = 1, n do
  if not counted[f] then onlySummedCounts = false end
end
if onlySummedCounts then
  -- Rare keys are looked up together only when there are two or more (as below); a single one is read directly.
  local direct = {}
  for f = 1, n do
    if not (rare[f] and rares > 1) then direct[#direct + 1] = f end
  end
  local nDirect = #direct
  for k = 1, #metaKeys do
    local q = string.sub(metaKeys[k], 1, -5)
    if rares > 1 then
      for i = 1, rares do rareKeys[i] = q .. firsts[rareAt[i]] end
      if redis.call('EXISTS', unpack(rareKeys, 1, rares)) > 0 then
        for i = 1, rares do
          local f = rareAt[i]
          sums[f] = sums[f] + redis.call(counted[f], rareKeys[i])
        end
      end
    end
    for i = 1, nDirect do
      local f = direct[i]
      sums[f] = sums[f] + redis.call(counted[f], q .. firsts[f])
    end
  end
else
  -- Defined in this branch only: declared at the top, the function made the loop above ~20% slower (measured, Redis 7's Lua 5.1).
  local function otherFigure(op, arg, keyTypes, q, key)
    if op == 'hexists' then return redis.call('HEXISTS', key, arg)
    elseif op == 'hnumber' then return tonumber(redis.call('HGET', key, arg) or '0') or 0
    elseif op == 'zcount-after' then return redis.call('ZCOUNT', key, arg[1], arg[2])
    elseif op == 'any' then
      for t = 1, #keyTypes do
        if redis.call('EXISTS', q .. keyTypes[t]) == 1 then return 1 end
      end
      return 0
    elseif op == 'lsum' then
      local value = 0
      for _, point in ipairs(redis.call('LRANGE', key, '0', arg)) do value = value + (tonumber(point) or 0) end
      return value
    elseif op == 'oldest' then
      local tail = redis.call('LINDEX', key, -1)
      return tail and (tonumber(redis.call('HGET', q .. tail, arg) or '0') or 0) or 0
    end
    return 0
  end
  for k = 1, #metaKeys do
    local q = string.sub(metaKeys[k], 1, -5)
    local figuresRead = all
    if rares > 1 then
      for i = 1, rares do rareKeys[i] = q .. firsts[rareAt[i]] end
      -- None of the rare keys exists: they are all 0, and only the common figures are looked at (no key name made for the others).
      if redis.call('EXISTS', unpack(rareKeys, 1, rares)) == 0 then
        figuresRead = common
        for i = 1, #rareInRow do row[rareInRow[i]] = 0 end
      end
    end
    for i = 1, #figuresRead do
      local f = figuresRead[i]
      local value, command = 0, counted[f]
      if command then value = redis.call(command, q .. firsts[f]) else value = otherFigure(ops[f], args[f], types[f], q, q .. firsts[f]) end
      local at = rowAt[f]
      if at then row[at] = value end
      if sum[f] then sums[f] = sums[f] + value end
    end
    if kept > 0 then parts[k] = struct.pack(rowFormat, unpack(row, 1, kept)) end
  end
end
parts[#parts + 1] = struct.pack('<' .. string.rep('d', n), unpack(sums, 1, n))
return table.concat(parts)`);
