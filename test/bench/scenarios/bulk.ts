import { Redis } from 'ioredis';
import type { ServerProcess } from '../processes.js';
import { pingWatcher } from '../redis-stats.js';
import { cloneFinishedJobs, prefix, seedLiveJobs, type BenchConnection } from '../seed.js';
import { report, round } from '../targets.js';
import { floorBatch, floorPurge, floorRetry } from './bulk-floor.js';

/**
 * Issue 36 item 3: a million failed jobs retried, then purged, as Bullpen tasks, each beside a bare
 * batched-Lua loop (the floor) on the same store and the same queue, re-filled between the two.
 */
export const bulkQueue = 'bulk';

/** Fills the bulk queue with `jobs` failed jobs (ids 1..jobs, as BullMQ lays them out); a retry's leftovers go. */
export async function seedBulkQueue(redis: Redis, connection: BenchConnection, jobs: number): Promise<void> {
  await seedLiveJobs(connection, bulkQueue);
  await redis.del(`${prefix}:${bulkQueue}:wait`, `${prefix}:${bulkQueue}:failed`);
  await cloneFinishedJobs(redis, bulkQueue, 'failed', jobs, 1);
}

interface Side {
  jobs: number;
  ms: number;
  ping: number;
}

const rate = (side: Side) => Math.round((side.jobs * 1000) / side.ms);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Runs `work` with a PING every 10 ms on a connection of its own: the time taken (or the time `work`
 * itself reports) and the PING p99 throughout.
 */
async function timed(redisPort: number, work: () => Promise<number | { jobs: number; ms: number }>): Promise<Side> {
  const pinger = new Redis({ host: '127.0.0.1', port: redisPort });
  await pinger.ping();
  const watcher = pingWatcher(pinger);
  const started = performance.now();
  const done = await work();
  const ms = performance.now() - started;
  const ping = round(await watcher.stop());
  pinger.disconnect();
  return typeof done === 'number' ? { jobs: done, ms, ping } : { ...done, ping };
}

/**
 * Starts a task through Bullpen's REST API and waits for it to end (polled every 100 ms: a poll is a request
 * Bullpen serves on the same cores as the task, so polling every 20 ms took CPU from the task it timed);
 * answers its `processed` and the time from the request to the task's recorded end (same host clock).
 */
async function runTask(
  bullpen: ServerProcess,
  connectionId: string,
  path: string,
  body: object,
): Promise<{ jobs: number; ms: number }> {
  const base = `${bullpen.url}/api/c/${connectionId}`;
  const sentAt = Date.now();
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const { taskId } = (await response.json()) as { taskId?: string };
  if (!taskId) throw new Error(`no task from ${path}: ${response.status}`);
  for (;;) {
    const task = (await (await fetch(`${base}/tasks/${taskId}`)).json()) as {
      state: string;
      processed: number;
      finishedAt: string;
    };
    if (task.state === 'done') {
      if (process.env.BENCH_DEBUG) console.log(JSON.stringify(task), new Date().toISOString());
      return { jobs: task.processed, ms: Date.parse(task.finishedAt) - sentAt };
    }
    if (task.state !== 'running' && task.state !== 'queued') throw new Error(`task ${taskId}: ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function reportPair(action: 'retry' | 'purge', jobs: number, floor: Side[], bullpen: Side[]): void {
  const ratios = bullpen.map((side, index) => round(rate(side) / Math.max(1, rate(floor[index]!))));
  const ratio = median(ratios);
  const rounds = ratios.length > 1 ? `, median of ${ratios.length} rounds (${ratios.join(' / ')})` : '';
  report(
    '36.3 bulk',
    `${action} ${jobs} failed jobs as a task, jobs/s: Bullpen / bare batched-Lua loop (${floorBatch} a call)${rounds}`,
    `${median(bullpen.map(rate))} / ${median(floor.map(rate))} (${ratio}×)`,
    '≥ 0.9×',
    ratio >= 0.9 && bullpen.every((side) => side.jobs === jobs),
  );
  const ping = median(bullpen.map((side) => side.ping));
  report(
    '36.3 bulk',
    `Redis PING p99 ms (every 10 ms, own connection) through Bullpen's ${action} (through the floor's)`,
    `${ping} (${median(floor.map((side) => side.ping))})`,
    '≤ 20 ms',
    ping <= 20,
  );
}

/**
 * Puts retried jobs back as failed without re-copying them: their finish fields set again, their ids
 * back in `failed` (scored as the seed scores them), the wait list gone. Far cheaper than a re-seed.
 */
async function failAgain(redis: Redis, jobs: number): Promise<void> {
  const base = `${prefix}:${bulkQueue}`;
  await redis.del(`${base}:wait`);
  const now = Date.now();
  for (let start = 1; start <= jobs; start += 5000) {
    const pipeline = redis.pipeline();
    const scored: Array<number | string> = [];
    for (let id = start; id < Math.min(jobs + 1, start + 5000); id++) {
      pipeline.hset(`${base}:${id}`, 'finishedOn', now, 'processedOn', now, 'failedReason', 'card declined');
      scored.push(now - jobs + id, String(id));
    }
    pipeline.zadd(`${base}:failed`, ...scored);
    await pipeline.exec();
  }
}

/**
 * Both sides run once on a small queue of their own before anything is timed, as every subject of the
 * benchmark is warmed first: Bullpen loads BullMQ on first use and its task path runs cold (the first
 * round was ~0.35× where the next ones were ~0.8–1.1×), and each side's scripts get cached.
 */
async function warmUp(bullpen: ServerProcess, connectionId: string, redis: Redis, connection: BenchConnection) {
  const queue = `${bulkQueue}-warm`;
  await seedLiveJobs(connection, queue);
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 1);
  await runTask(bullpen, connectionId, `/queues/${queue}/jobs/retry`, { status: 'failed', all: true, async: true });
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 5001);
  await runTask(bullpen, connectionId, `/queues/${queue}/purge`, {
    confirmName: queue,
    statuses: ['failed'],
    async: true,
  });
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 10_001);
  await floorRetry(redis, queue, 'failed');
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 15_001);
  await floorPurge(redis, queue);
  await redis.del(`${prefix}:${queue}:wait`, `${prefix}:${queue}:events`);
}

/**
 * `rounds` rounds of: the floor's retry, then Bullpen's; Bullpen's purge, then the floor's (ABBA, so
 * neither side always runs on the fresher store), each on the same queue of `jobs` failed jobs: a retry's
 * jobs failed again for the next side, a purge's re-seeded.
 */
export async function bulkScenario(
  bullpen: ServerProcess,
  connectionId: string,
  connection: BenchConnection,
  { jobs, rounds }: { jobs: number; rounds: number },
): Promise<void> {
  const redis = new Redis(connection);
  const path = `/queues/${bulkQueue}`;
  const sides = {
    retry: { floor: [] as Side[], bullpen: [] as Side[] },
    purge: { floor: [] as Side[], bullpen: [] as Side[] },
  };
  const retryBody = { status: 'failed', all: true, async: true };
  const purgeBody = { confirmName: bulkQueue, statuses: ['failed'], async: true };
  const side = (work: () => Promise<number | { jobs: number; ms: number }>) => timed(connection.port, work);
  await warmUp(bullpen, connectionId, redis, connection);
  await seedBulkQueue(redis, connection, jobs);
  for (let index = 0; index < rounds; index++) {
    sides.retry.floor.push(await side(() => floorRetry(redis, bulkQueue, 'failed')));
    await failAgain(redis, jobs);
    sides.retry.bullpen.push(await side(() => runTask(bullpen, connectionId, `${path}/jobs/retry`, retryBody)));
    await failAgain(redis, jobs);
    sides.purge.bullpen.push(await side(() => runTask(bullpen, connectionId, `${path}/purge`, purgeBody)));
    await seedBulkQueue(redis, connection, jobs);
    sides.purge.floor.push(await side(() => floorPurge(redis, bulkQueue)));
    if (index < rounds - 1) await seedBulkQueue(redis, connection, jobs);
  }
  reportPair('retry', jobs, sides.retry.floor, sides.retry.bullpen);
  reportPair('purge', jobs, sides.purge.floor, sides.purge.bullpen);
  redis.disconnect();
}
