import type { StoreClient } from '../stores/redis-client.js';
import { jobMissing, jobStateLua, queueMissing } from './job-state-lua.js';
import { LuaScript } from './lua-script.js';
import { scriptPrefixes } from './script-prefixes.js';
import { queueKey } from './queue-key.js';

const fieldMissing = 'field-missing';

/**
 * Bytes [offset, offset + length) of one job hash field, the end moved back so no UTF-8 character is
 * cut, with the field's whole length: the way to read a job too big for one response. Read-only; the
 * field is copied once inside the store, and only the range crosses the network.
 * ARGV: queue name, job id, field, offset, length, candidate prefixes…
 */
const script = new LuaScript(`${jobStateLua}
local name, id, field, offset, length = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local prefixes = {}
for i = 6, #ARGV do prefixes[#prefixes + 1] = ARGV[i] end
local at = firstQueue(name, prefixes)
if not at then return { '${queueMissing}' } end
local jobKey = prefixes[at] .. ':' .. name .. ':' .. id
if rcall('EXISTS', jobKey) == 0 then return { '${jobMissing}', at } end
local value = rcall('HGET', jobKey, field)
if not value then return { '${fieldMissing}', at } end
local total = #value
local last = math.min(total, offset + length)
while last > offset and last < total do
  local byte = string.byte(value, last + 1)
  if byte < 128 or byte >= 192 then break end
  last = last - 1
end
return { 'ok', at, total, string.sub(value, offset + 1, last) }
`);

export type JobFieldRead =
  | { found: 'queue-missing' }
  | { found: 'job-missing' }
  | { found: 'field-missing' }
  | { found: 'field'; totalLength: number; text: string; bytes: number };

export interface ReadJobFieldOptions {
  queueName: string;
  jobId: string;
  field: string;
  offset: number;
  length: number;
  prefixes: readonly string[];
}

export async function readJobField(client: StoreClient, options: ReadJobFieldOptions): Promise<JobFieldRead> {
  const prefixes = await scriptPrefixes(client, options.queueName, options.prefixes);
  if (prefixes.length === 0) return { found: 'queue-missing' };
  const metaKey = queueKey({ prefix: prefixes[0]!, name: options.queueName }, 'meta');
  const args = [options.queueName, options.jobId, options.field, options.offset, options.length, ...prefixes];
  const reply = (await script.runForBuffer(client, [metaKey], args)) as unknown as unknown[];
  const status = String(reply[0]);
  if (status === queueMissing) return { found: 'queue-missing' };
  if (status === jobMissing) return { found: 'job-missing' };
  if (status === fieldMissing) return { found: 'field-missing' };
  const bytes = reply[3] as Buffer;
  return { found: 'field', totalLength: Number(reply[2]), text: bytes.toString('utf8'), bytes: bytes.length };
}
