/**
 * Lua of `movedOptsText(opts, quotedId)`: the options a moved job gets, made in the store from the
 * stored text, as the service's movedOpts (routers/jobs/moved-job.ts) makes them: the top-level
 * options a move drops taken out, the new id appended. BullMQ writes options with JSON.stringify, so
 * cutting the dropped members out of that text is what parsing, deleting and writing it again gives,
 * byte for byte, without a parse (the store's cjson would also rewrite numbers and key order). Text
 * that names none of the dropped options (the common case) only gets the id appended; text with a
 * dropped option is walked member by member (a backoff's nested `delay` stays: only top-level members
 * go). Anything JSON.stringify does not write (whitespace between members, an escaped member name,
 * not an object) answers nil: the service parses it instead. `quotedId` is the id as a JSON string.
 */
export const movedOptsLua = `
local dropped = { jobId = true, delay = true, ['repeat'] = true, repeatJobKey = true, parent = true,
  timestamp = true, prevMillis = true, debounce = true, deduplication = true, de = true }
local named = { '"jobId"', '"de', '"repeat', '"parent"', '"timestamp"', '"prevMillis"' }
local sbyte, sfind, ssub = string.byte, string.find, string.sub
-- Where the JSON value starting at i ends (the index after it), or nil when the text is not JSON.
local function valueEnd(s, i)
  local depth = 0
  while true do
    local at = sfind(s, '[%[%]{}",]', i)
    if not at then return nil end
    local c = sbyte(s, at)
    if c == 34 then
      local j = at + 1
      while true do
        local q = sfind(s, '["\\\\]', j)
        if not q then return nil end
        if sbyte(s, q) == 92 then j = q + 2 else i = q + 1 break end
      end
      if depth == 0 then return i end
    elseif c == 123 or c == 91 then
      depth = depth + 1
      i = at + 1
    elseif depth == 0 then
      return at
    elseif c == 44 then
      i = at + 1
    else
      depth = depth - 1
      i = at + 1
      if depth == 0 then return i end
    end
  end
end
-- The members of an object's text that a move keeps, or nil when the text is not as JSON.stringify writes it.
local function keptMembers(opts)
  local kept, i, last = {}, 2, #opts
  if last == 2 then return kept end
  while true do
    if sbyte(opts, i) ~= 34 then return nil end
    local close = sfind(opts, '["\\\\]', i + 1)
    if not close or sbyte(opts, close) == 92 or sbyte(opts, close + 1) ~= 58 then return nil end
    local stop = valueEnd(opts, close + 2)
    if not stop or stop == close + 2 or stop > last then return nil end
    if not dropped[ssub(opts, i + 1, close - 1)] then kept[#kept + 1] = ssub(opts, i, stop - 1) end
    local c = sbyte(opts, stop)
    if c == 125 then
      if stop == last then return kept end
      return nil
    end
    if c ~= 44 then return nil end
    i = stop + 1
  end
end
local function movedOptsText(opts, quotedId)
  if not opts or sbyte(opts, 1) ~= 123 or sbyte(opts, -1) ~= 125 then return nil end
  local plain = true
  for _, name in ipairs(named) do
    if sfind(opts, name, 1, true) then plain = false break end
  end
  if plain then
    if #opts == 2 then return '{"jobId":' .. quotedId .. '}' end
    return ssub(opts, 1, -2) .. ',"jobId":' .. quotedId .. '}'
  end
  local kept = keptMembers(opts)
  if not kept then return nil end
  kept[#kept + 1] = '"jobId":' .. quotedId
  return '{' .. table.concat(kept, ',') .. '}'
end
`;
