/**
 * Lua helpers shared by the read scripts, on BullMQ 6's key layout: a job
 * key is `<queueKey>:<id>`, and its state is the first status key holding
 * its id (the order of BullMQ's own getState script).
 */
export const jobStateLua = `
local rcall = redis.call
local function stateOf(q, id)
  if rcall('ZSCORE', q .. ':completed', id) then return 'completed' end
  if rcall('ZSCORE', q .. ':failed', id) then return 'failed' end
  if rcall('ZSCORE', q .. ':delayed', id) then return 'delayed' end
  if rcall('ZSCORE', q .. ':prioritized', id) then return 'prioritized' end
  if rcall('LPOS', q .. ':active', id) then return 'active' end
  if rcall('LPOS', q .. ':wait', id) then return 'waiting' end
  if rcall('LPOS', q .. ':paused', id) then return 'waiting' end
  if rcall('ZSCORE', q .. ':waiting-children', id) then return 'waiting-children' end
  return 'unknown'
end
local function refOf(jobKey)
  local q, id = string.match(jobKey, '^(.*):([^:]*)$')
  local name = rcall('HGET', jobKey, 'name')
  if not q or not name then return { jobKey, false, 'unknown' } end
  return { jobKey, name, stateOf(q, id) }
end
local function firstQueue(name, prefixes)
  for i = 1, #prefixes do
    if rcall('EXISTS', prefixes[i] .. ':' .. name .. ':meta') == 1 then return i end
  end
  return nil
end
`;

/** Marker replies of the read scripts; an ordinary reply starts with 'ok'. */
export const queueMissing = 'queue-missing';
export const jobMissing = 'job-missing';
