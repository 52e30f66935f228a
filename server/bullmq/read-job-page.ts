import type { StoreClient } from '../stores/redis-client.js';
import { jobStateLua, queueMissing } from './job-state-lua.js';
import type { JobHash } from './job-hash.js';
import { LuaScript } from './lua-script.js';
import { scriptPrefixes } from './script-prefixes.js';
import { queueKey } from './queue-key.js';

/**
 * One page of a status in one read-only script call: the queue's existence
 * (first candidate prefix holding its meta key), the status's size, the
 * page's ids (one range read) and the asked fields of each job hash (HMGET,
 * each hash read once). Lists (wait, active, paused) keep the newest at the
 * head; sorted sets the newest at the highest score.
 *
 * ARGV: name, status key, 'list'|'zset', start, end, oldest ('1'/'0'),
 * prefix count, prefixes…, fields…
 */
const script = new LuaScript(`${jobStateLua}
local name, suffix, isList, start, stop, oldest = ARGV[1], ARGV[2], ARGV[3] == 'list', tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1'
local count = tonumber(ARGV[7])
local prefixes, fields = {}, {}
for i = 8, 7 + count do prefixes[#prefixes + 1] = ARGV[i] end
for i = 8 + count, #ARGV do fields[#fields + 1] = ARGV[i] end
local at = firstQueue(name, prefixes)
if not at then return { '${queueMissing}' } end
local q = prefixes[at] .. ':' .. name
local key = q .. ':' .. suffix
local total, ids
if isList then
  total = rcall('LLEN', key)
  if oldest then
    ids = rcall('LRANGE', key, -(stop + 1), -(start + 1))
    local n = #ids
    for i = 1, math.floor(n / 2) do ids[i], ids[n - i + 1] = ids[n - i + 1], ids[i] end
  else ids = rcall('LRANGE', key, start, stop) end
else
  total = rcall('ZCARD', key)
  if oldest then ids = rcall('ZRANGE', key, start, stop) else ids = rcall('ZREVRANGE', key, start, stop) end
end
local rows = {}
for i = 1, #ids do rows[i] = rcall('HMGET', q .. ':' .. ids[i], unpack(fields)) end
return { 'ok', at, total, ids, rows }
`);

export interface JobPageRequest {
  queueName: string;
  prefixes: readonly string[];
  /** The status's key suffix (`wait`, `completed`…) and whether it is a list or a sorted set. */
  statusKey: string;
  statusIsList: boolean;
  start: number;
  end: number;
  oldestFirst: boolean;
  fields: readonly string[];
}

export type JobPageRead =
  | { found: 'queue-missing' }
  | { found: 'page'; prefix: string; total: number; jobs: Array<{ id: string; hash: JobHash }> };

export async function readJobPage(client: StoreClient, request: JobPageRequest): Promise<JobPageRead> {
  const prefixes = await scriptPrefixes(client, request.queueName, request.prefixes);
  if (prefixes.length === 0) return { found: 'queue-missing' };
  const metaKey = queueKey({ prefix: prefixes[0]!, name: request.queueName }, 'meta');
  const args = [
    request.queueName,
    request.statusKey,
    request.statusIsList ? 'list' : 'zset',
    request.start,
    request.end,
    request.oldestFirst ? '1' : '0',
    prefixes.length,
    ...prefixes,
    ...request.fields,
  ];
  const reply = (await script.run(client, [metaKey], args)) as unknown[];
  if (reply[0] === queueMissing) return { found: 'queue-missing' };
  const [, at, total, ids, rows] = reply as [string, number, number, string[], Array<Array<string | null>>];
  const jobs: Array<{ id: string; hash: JobHash }> = [];
  ids.forEach((id, index) => {
    const row = rows[index]!;
    // An id left in a status whose job hash is gone: nothing to show.
    if (row.every((value) => value === null)) return;
    const hash: JobHash = {};
    request.fields.forEach((field, k) => {
      if (row[k] !== null) hash[field] = row[k]!;
    });
    jobs.push({ id, hash });
  });
  return { found: 'page', prefix: prefixes[at - 1]!, total, jobs };
}
