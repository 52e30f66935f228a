import { LuaScript } from './lua-script.js';
import { moveJobLua } from './move-job-lua.js';
import { tallyLua, tallyTtlSeconds } from './move-within-store.js';
import { movedOptsLua } from './moved-opts-lua.js';

/**
 * One call of a status-wide move: the script takes the next `count` jobs of the status itself (the
 * oldest first, past the `at` jobs the move left at the head) and moves each as moveWithinStorePlain
 * does, in one atomic step: no ids cross the wire, and calls in flight at once each find the head as
 * the ones before left it. A job that stays keeps its place: `at` grows by one, and `refused` too
 * unless it is `missing` (an id whose job is gone) or `rewrite` (the service carries it next and frees
 * the place; until then it is marked pending, `p:<id>`, so a run resumed after a crash carries it).
 * ARGV: source base, target base, tally key or '', held key, status key name, '1' for a list (oldest
 * at its tail), count, target id prefix ('' keeps ids), `at` where the move has none yet.
 */
export const pickScript = new LuaScript(`${moveJobLua}${movedOptsLua}
local src, dst, tally, held = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local statusKey, count, idPrefix = src .. ARGV[5], tonumber(ARGV[7]), ARGV[8]
local place = rcall('HMGET', held, 'at', 'refused')
local at, refused = tonumber(place[1] or ARGV[9]), tonumber(place[2] or ARGV[9])
local ids
if ARGV[6] == '1' then
  ids = rcall('LRANGE', statusKey, -(at + count), -(at + 1))
  for i = 1, math.floor(#ids / 2) do ids[i], ids[#ids + 1 - i] = ids[#ids + 1 - i], ids[i] end
else
  ids = rcall('ZRANGE', statusKey, at, at + count - 1)
end
local staying = {}
local moved, refusedNow = 0, 0
for _, id in ipairs(ids) do
  local targetId = idPrefix .. id
  local job = readJob(src, id)
  local verdict = sourceVerdict(src, id, job, job.opts or '')
  if not verdict and idPrefix == '' and string.find(id, '^%d+$') then verdict = 'numeric' end
  local opts
  if not verdict then
    if string.find(targetId, '[%c"\\\\]') then verdict = 'rewrite'
    else
      opts = movedOptsText(job.opts, '"' .. targetId .. '"')
      if not opts then verdict = 'rewrite' end
    end
  end
  if not verdict then verdict = carryJob(src, dst, id, targetId, job, opts) end
  if not verdict then
    moved = moved + 1
  else
    staying[#staying + 1] = id
    staying[#staying + 1] = verdict
    if verdict == 'rewrite' then rcall('HSET', held, 'p:' .. id, 1)
    elseif verdict ~= 'missing' then refusedNow = refusedNow + 1 end
  end
end
${tallyLua}
if #staying > 0 or not place[1] then
  rcall('HSET', held, 'at', at + #staying / 2, 'refused', refused + refusedNow)
  rcall('EXPIRE', held, ${tallyTtlSeconds})
end
return { #ids, staying }`);
