import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { ServerProcess } from '../processes.js';
import { pingWatcher } from '../redis-stats.js';
import { prefix } from '../seed.js';
import { report, round } from '../targets.js';
import { floorBatch } from './bulk-floor.js';

/** One side of one round: jobs acted on, the time taken, PING p99, Redis CPU (ms), the host's 1-min load. */
export interface Side {
  jobs: number;
  ms: number;
  ping: number;
  cpuMs: number;
  load: number;
}

const rate = (side: Side) => Math.round((side.jobs * 1000) / side.ms);
const cpuPerJob = (side: Side) => round((side.cpuMs * 1000) / Math.max(1, side.jobs));
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The store's CPU so far (INFO used_cpu_sys + used_cpu_user, ms): the bench's own redis-server, no one else's. */
async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(info.match(new RegExp(`^${name}:([\\d.]+)`, 'm'))?.[1] ?? 0);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1000;
}

/**
 * Runs `work` with a PING every 10 ms on a connection of its own: the time taken (or the time `work`
 * itself reports), the PING p99 and the store's CPU throughout.
 */
export async function timed(
  redisPort: number,
  work: () => Promise<number | { jobs: number; ms: number }>,
): Promise<Side> {
  const pinger = new Redis({ host: '127.0.0.1', port: redisPort });
  await pinger.ping();
  const cpuBefore = await redisCpuMs(pinger);
  const watcher = pingWatcher(pinger);
  const started = performance.now();
  const done = await work();
  const ms = performance.now() - started;
  const ping = round(await watcher.stop());
  const cpuMs = (await redisCpuMs(pinger)) - cpuBefore;
  pinger.disconnect();
  const load = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  return typeof done === 'number' ? { jobs: done, ms, ping, cpuMs, load } : { ...done, ping, cpuMs, load };
}

/**
 * Starts a task through Bullpen's REST API and waits for it to end (polled every 100 ms: a poll is a request
 * Bullpen serves on the same cores as the task, so polling every 20 ms took CPU from the task it timed);
 * answers its `processed` and the time from the request to the task's recorded end (same host clock).
 */
export async function runTask(
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

/** The pair's rows: jobs/s (median of the rounds' ratios), PING p99 through each, Redis CPU a job and the loads. */
export function reportPair(action: 'retry' | 'purge' | 'move', jobs: number, floor: Side[], bullpen: Side[]): void {
  const ratios = bullpen.map((side, index) => round(rate(side) / Math.max(1, rate(floor[index]!))));
  const ratio = median(ratios);
  const rounds = ratios.length > 1 ? `, median of ${ratios.length} rounds (${ratios.join(' / ')})` : '';
  const what = action === 'move' ? "move 1 queue's" : action;
  report(
    '36.3 bulk',
    `${what} ${jobs} failed jobs as a task, jobs/s: Bullpen / bare batched-Lua loop (${floorBatch} a call)${rounds}`,
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
  const [ours, theirs] = [median(bullpen.map(cpuPerJob)), median(floor.map(cpuPerJob))];
  const loads = [...bullpen, ...floor].map((side) => side.load);
  report(
    '36.3 bulk',
    `Redis CPU µs a job, Bullpen's ${action} / the floor's (median; 1-min load ${Math.min(...loads)}–${Math.max(...loads)})`,
    `${ours} / ${theirs} (${round(ours / Math.max(0.01, theirs))}×)`,
  );
}

/**
 * Puts retried jobs back as failed without re-copying them: their finish fields set again, their ids
 * back in `failed` (scored as the seed scores them), the wait list gone. Far cheaper than a re-seed.
 */
export async function failAgain(redis: Redis, queue: string, jobs: number): Promise<void> {
  const base = `${prefix}:${queue}`;
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

/** Empties a move's target queue (its `<source>-<id>` jobs and their logs, its lists and stream). */
export async function emptyMoveTarget(redis: Redis, source: string, target: string, jobs: number): Promise<void> {
  const base = `${prefix}:${target}`;
  for (let start = 1; start <= jobs; start += 5000) {
    const keys: string[] = [];
    for (let id = start; id < Math.min(jobs + 1, start + 5000); id++)
      keys.push(`${base}:${source}-${id}`, `${base}:${source}-${id}:logs`);
    await redis.unlink(...keys);
  }
  await redis.unlink(`${base}:wait`, `${base}:events`, `${base}:marker`, `${base}:prioritized`, `${base}:pc`);
}
