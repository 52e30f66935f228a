import { LuaScript } from './lua-script.js';
import { queueKey, type QueueRef } from './queue-key.js';
import type { StoreClient } from '../stores/redis-client.js';

/** Longest failure reason read per job: the grouping needs its start, the example shows it. */
export const maxReasonRead = 2000;
/** Jobs read per script call. */
const jobsPerCall = 250;

/**
 * Per job key: its failure reason (cut), its finish time, and the first line
 * of its latest stack trace. Only that line leaves Redis, however long the
 * traces (up to `stackTraceLimit` of them per job) are.
 */
const failureFields = new LuaScript(`
local out = {}
for i = 1, #KEYS do
  local f = redis.call('HMGET', KEYS[i], 'failedReason', 'finishedOn', 'stacktrace')
  local line = false
  if f[3] then
    local ok, traces = pcall(cjson.decode, f[3])
    if ok and type(traces) == 'table' and type(traces[#traces]) == 'string' then
      line = string.sub(string.match(traces[#traces], '^[^\\n]*'), 1, 300)
    end
  end
  out[i] = { f[1] and string.sub(f[1], 1, tonumber(ARGV[1])) or false, f[2] or false, line }
end
return out
`);

/** Which failed jobs a triage page reads: failure time in [from, upper], newest first, past the first `skip`. */
export interface FailureWindow {
  from: number;
  upper: number;
  skip: number;
  limit: number;
}

/** A page of failed jobs: the failure times read (the cursor advances by them) and what each job says. */
export interface FailuresRead {
  scores: number[];
  jobs: FailedJob[];
}

export interface FailedJob {
  id: string;
  reason: string;
  finishedOn: number;
  stackFirstLine: string | null;
}

/**
 * The failed jobs of a queue with a failure time in [from, upper], newest
 * first, skipping the first `skip` of them (those at `upper` already seen).
 * The failed set is scored by finish time: one range read, whatever its size.
 */
export async function readFailedPage(
  client: StoreClient,
  ref: QueueRef,
  window: FailureWindow,
): Promise<Array<{ id: string; score: number }>> {
  const flat = await client.zrevrangebyscore(
    queueKey(ref, 'failed'),
    window.upper,
    window.from,
    'WITHSCORES',
    'LIMIT',
    window.skip,
    window.limit,
  );
  const entries: Array<{ id: string; score: number }> = [];
  for (let at = 0; at < flat.length; at += 2) entries.push({ id: flat[at]!, score: Number(flat[at + 1]) });
  return entries;
}

/** What the triage reads of each job (a job removed meanwhile is left out). */
export async function readFailures(
  client: StoreClient,
  ref: QueueRef,
  entries: Array<{ id: string; score: number }>,
): Promise<FailedJob[]> {
  const jobs: FailedJob[] = [];
  for (let start = 0; start < entries.length; start += jobsPerCall) {
    const chunk = entries.slice(start, start + jobsPerCall);
    const replies = (await failureFields.run(
      client,
      chunk.map((entry) => queueKey(ref, entry.id)),
      [maxReasonRead],
    )) as Array<[string | null, string | null, string | null]>;
    chunk.forEach((entry, at) => {
      const [reason, finishedOn, stackFirstLine] = replies[at] ?? [null, null, null];
      if (reason === null && finishedOn === null) return;
      jobs.push({
        id: entry.id,
        reason: reason ?? '',
        finishedOn: Number(finishedOn ?? entry.score),
        stackFirstLine: stackFirstLine ?? null,
      });
    });
  }
  return jobs;
}

/** The Redis read of a triage page (the seam's readFailures): a range of the failed set, then the jobs' fields. */
export async function readFailuresPage(
  client: StoreClient,
  ref: QueueRef,
  window: FailureWindow,
): Promise<FailuresRead> {
  const entries = await readFailedPage(client, ref, window);
  return { scores: entries.map((entry) => entry.score), jobs: await readFailures(client, ref, entries) };
}
