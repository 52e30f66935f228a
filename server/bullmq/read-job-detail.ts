import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { jobMissing, jobStateLua, queueMissing } from './job-state-lua.js';
import { LuaScript } from './lua-script.js';
import { scriptPrefixes } from './script-prefixes.js';
import { queueKey } from './queue-key.js';

const tooBig = 'too-big';

/**
 * Everything the job detail shows, in one read-only script call: which of
 * the candidate prefixes holds the queue (its meta key, so the queue's
 * existence check is folded in), the job hash, its state, its log count, its
 * flow children's counts and first keys, and, where every key lives on one
 * node (`refs`), the name and state of its parent and listed children.
 *
 * A job whose hash holds more than `maxBytes` is answered by its size and its big fields' sizes
 * only, so the caller decides (wait for room, or refuse) before any of it is sent.
 *
 * ARGV: queue name, job id, child limit, refs ('1'/'0'), max bytes, candidate prefixes…
 */
const script = new LuaScript(`${jobStateLua}
local name, id, limit, refs, maxBytes = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1', tonumber(ARGV[5])
local prefixes = {}
for i = 6, #ARGV do prefixes[#prefixes + 1] = ARGV[i] end
local at = firstQueue(name, prefixes)
if not at then return { '${queueMissing}' } end
local q = prefixes[at] .. ':' .. name
local jobKey = q .. ':' .. id
local hash = rcall('HGETALL', jobKey)
if #hash == 0 then return { '${jobMissing}', at } end
local size, bigFields = 0, {}
for i = 1, #hash do size = size + #hash[i] end
if size > maxBytes then
  for i = 1, #hash, 2 do
    if #hash[i + 1] >= 1024 then bigFields[#bigFields + 1] = hash[i]; bigFields[#bigFields + 1] = #hash[i + 1] end
  end
  return { '${tooBig}', at, size, bigFields }
end
local counts = { rcall('HLEN', jobKey .. ':processed'), rcall('SCARD', jobKey .. ':dependencies'),
  rcall('ZCARD', jobKey .. ':unsuccessful'), rcall('HLEN', jobKey .. ':failed') }
local children, seen = {}, {}
local function add(key)
  if #children < limit and not seen[key] then seen[key] = true; children[#children + 1] = key end
end
if counts[2] > 0 then for _, key in ipairs(rcall('SSCAN', jobKey .. ':dependencies', 0, 'COUNT', limit)[2]) do add(key) end end
if counts[1] > 0 then local f = rcall('HSCAN', jobKey .. ':processed', 0, 'COUNT', limit)[2]; for i = 1, #f, 2 do add(f[i]) end end
if counts[3] > 0 then for _, key in ipairs(rcall('ZRANGE', jobKey .. ':unsuccessful', 0, limit - 1)) do add(key) end end
if counts[4] > 0 then local f = rcall('HSCAN', jobKey .. ':failed', 0, 'COUNT', limit)[2]; for i = 1, #f, 2 do add(f[i]) end end
local parentKey, parent, childRefs = false, false, {}
for i = 1, #hash, 2 do if hash[i] == 'parentKey' then parentKey = hash[i + 1] end end
if refs then
  if parentKey then parent = refOf(parentKey) end
  for i = 1, #children do childRefs[i] = refOf(children[i]) end
end
return { 'ok', at, hash, stateOf(q, id), rcall('LLEN', jobKey .. ':logs'), counts, children, parent, childRefs }
`);

/** A job key's name and state as the script read them (name null: the job is gone). */
export interface RawJobRef {
  key: string;
  name: string | null;
  state: string;
}

export interface RawJobDetail {
  prefix: string;
  /** The job hash as BullMQ stores it (field → text). */
  hash: Record<string, string>;
  state: string;
  logsCount: number;
  children: { processed: number; unprocessed: number; failed: number; ignored: number };
  childKeys: string[];
  /** Undefined when `refsResolved` is false or the job has no parent. */
  parent?: RawJobRef;
  childRefs: RawJobRef[];
  /** False on a cluster, where parent and children may live on other nodes: the caller reads them itself. */
  refsResolved: boolean;
}

export type JobDetailRead =
  | { found: 'queue-missing' }
  | { found: 'job-missing'; prefix: string }
  /** The hash holds more than `maxBytes`: its size, and the size of each field of 1 KiB or more. */
  | { found: 'too-big'; prefix: string; bytes: number; fieldBytes: Record<string, number> }
  | { found: 'job'; job: RawJobDetail };

export interface ReadJobDetailOptions {
  queueName: string;
  jobId: string;
  /** Where to look for the queue, in order; the first holding its meta key wins. */
  prefixes: readonly string[];
  childLimit: number;
  /** A larger hash is not read (see the script). */
  maxBytes: number;
}

const toRef = ([key, name, state]: [string, string | null, string]): RawJobRef => ({ key, name, state });

function pairs(flat: string[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) hash[flat[i]!] = flat[i + 1]!;
  return hash;
}

/**
 * Reads a job's detail in one round trip on a standalone store. On a
 * cluster with several prefixes, finding the queue's prefix takes one more
 * (see scriptPrefixes), and parent and children refs one more (refsResolved).
 */
export async function readJobDetail(client: StoreClient, options: ReadJobDetailOptions): Promise<JobDetailRead> {
  const cluster = client instanceof Cluster;
  const prefixes = await scriptPrefixes(client, options.queueName, options.prefixes);
  if (prefixes.length === 0) return { found: 'queue-missing' };
  const metaKey = queueKey({ prefix: prefixes[0]!, name: options.queueName }, 'meta');
  const args = [
    options.queueName,
    options.jobId,
    options.childLimit,
    cluster ? '0' : '1',
    options.maxBytes,
    ...prefixes,
  ];
  const reply = (await script.run(client, [metaKey], args)) as unknown[];
  if (reply[0] === queueMissing) return { found: 'queue-missing' };
  const prefix = prefixes[(reply[1] as number) - 1]!;
  if (reply[0] === jobMissing) return { found: 'job-missing', prefix };
  if (reply[0] === tooBig) {
    const sizes = reply[3] as Array<string | number>;
    const fieldBytes: Record<string, number> = {};
    for (let i = 0; i < sizes.length; i += 2) fieldBytes[String(sizes[i])] = Number(sizes[i + 1]);
    return { found: 'too-big', prefix, bytes: reply[2] as number, fieldBytes };
  }
  const [, , hash, state, logsCount, counts, childKeys, parent, childRefs] = reply as [
    string,
    number,
    string[],
    string,
    number,
    number[],
    string[],
    [string, string | null, string] | null,
    Array<[string, string | null, string]>,
  ];
  return {
    found: 'job',
    job: {
      prefix,
      hash: pairs(hash),
      state,
      logsCount,
      children: { processed: counts[0]!, unprocessed: counts[1]!, failed: counts[2]!, ignored: counts[3]! },
      childKeys,
      ...(parent ? { parent: toRef(parent) } : {}),
      childRefs: childRefs.map(toRef),
      refsResolved: !cluster,
    },
  };
}
