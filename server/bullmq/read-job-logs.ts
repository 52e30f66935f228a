import type { StoreClient } from '../stores/redis-client.js';
import { jobMissing, jobStateLua, queueMissing } from './job-state-lua.js';
import { LuaScript } from './lua-script.js';
import { scriptPrefixes } from './script-prefixes.js';
import { queueKey } from './queue-key.js';

/**
 * A job's log lines [start, end] (oldest first) and their count, in one
 * read-only script call that also checks the queue and the job exist.
 * ARGV: queue name, job id, start, end, candidate prefixes…
 */
const script = new LuaScript(`${jobStateLua}
local name, id = ARGV[1], ARGV[2]
local prefixes = {}
for i = 5, #ARGV do prefixes[#prefixes + 1] = ARGV[i] end
local at = firstQueue(name, prefixes)
if not at then return { '${queueMissing}' } end
local jobKey = prefixes[at] .. ':' .. name .. ':' .. id
if rcall('EXISTS', jobKey) == 0 then return { '${jobMissing}', at } end
return { 'ok', at, rcall('LLEN', jobKey .. ':logs'), rcall('LRANGE', jobKey .. ':logs', ARGV[3], ARGV[4]) }
`);

export type JobLogsRead =
  | { found: 'queue-missing' }
  | { found: 'job-missing'; prefix: string }
  | { found: 'job'; prefix: string; count: number; logs: string[] };

export interface ReadJobLogsOptions {
  queueName: string;
  jobId: string;
  prefixes: readonly string[];
  start: number;
  end: number;
}

export async function readJobLogs(client: StoreClient, options: ReadJobLogsOptions): Promise<JobLogsRead> {
  const prefixes = await scriptPrefixes(client, options.queueName, options.prefixes);
  if (prefixes.length === 0) return { found: 'queue-missing' };
  const metaKey = queueKey({ prefix: prefixes[0]!, name: options.queueName }, 'meta');
  const reply = (await script.run(
    client,
    [metaKey],
    [options.queueName, options.jobId, options.start, options.end, ...prefixes],
  )) as unknown[];
  if (reply[0] === queueMissing) return { found: 'queue-missing' };
  const prefix = prefixes[(reply[1] as number) - 1]!;
  if (reply[0] === jobMissing) return { found: 'job-missing', prefix };
  return { found: 'job', prefix, count: reply[2] as number, logs: reply[3] as string[] };
}
