import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * Writes `count` jobs straight into a queue's failed set, as a Worker leaves a job that failed
 * its one attempt (the hash fields of BullMQ's own add and moveToFinished scripts), 5,000 per
 * script call: a worker fails jobs at ~1,500/s on two busy cores, this seeds 200k in seconds.
 * Ids come from the queue's own counter, so later adds never collide. Answers the ids.
 */
const seedScript = `
local base, count, now, opts = KEYS[1], tonumber(ARGV[1]), ARGV[2], ARGV[3]
redis.call('HSETNX', base .. 'meta', 'opts.maxLenEvents', 10000)
local first = redis.call('INCRBY', base .. 'id', count) - count
for i = 1, count do
  local id = tostring(first + i)
  redis.call('HSET', base .. id, 'name', 'work', 'data', '{"n":' .. id .. '}', 'opts', opts,
    'timestamp', now, 'delay', 0, 'priority', 0, 'processedOn', now, 'ats', 1, 'atm', 1,
    'failedReason', 'seeded failure', 'stacktrace', '[]', 'finishedOn', now)
  redis.call('ZADD', base .. 'failed', now, id)
end
return first`;

export async function seedFailedJobs(
  redis: Redis,
  prefix: string,
  queueName: string,
  count: number,
  opts = '{"attempts":1}',
): Promise<string[]> {
  const ids: string[] = [];
  for (let seeded = 0; seeded < count; seeded += 5000) {
    const chunk = Math.min(5000, count - seeded);
    const first = Number(await redis.eval(seedScript, 1, `${prefix}:${queueName}:`, chunk, Date.now(), opts));
    for (let i = 1; i <= chunk; i++) ids.push(String(first + i));
  }
  return ids;
}

/**
 * A real Worker whose processor counts its calls per job id in a Redis hash and always fails:
 * a job the task retries is failed again (later than the task's start), so a second retry of
 * it would show as a second call. After the run every job must show exactly one call.
 */
export function countingWorker(
  connection: { host: string; port: number },
  counter: Redis,
  prefix: string,
  queueName: string,
  callsKey: string,
): Worker {
  const worker = new Worker(
    queueName,
    async (job) => {
      await counter.hincrby(callsKey, job.id!, 1);
      throw new Error('counted and failed again');
    },
    { connection, prefix, concurrency: 200 },
  );
  worker.on('error', () => undefined);
  return worker;
}

/** How many jobs were called how many times: `{ '1': 20000 }` when each was called once. */
export async function callHistogram(redis: Redis, callsKey: string): Promise<Record<string, number>> {
  const histogram: Record<string, number> = {};
  let cursor = '0';
  do {
    const [next, entries] = await redis.hscan(callsKey, cursor, 'COUNT', 5000);
    for (let i = 1; i < entries.length; i += 2) histogram[entries[i]!] = (histogram[entries[i]!] ?? 0) + 1;
    cursor = next;
  } while (cursor !== '0');
  return histogram;
}
