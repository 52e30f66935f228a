import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { ServerProcess } from '../processes.js';
import { pingWatcher } from '../redis-stats.js';
import { cloneFinishedJobs, prefix, seedLiveJobs, type BenchConnection } from '../seed.js';
import { report, round } from '../targets.js';

/** Two queues a side, purged in ABBA order so neither side always runs on the fresher store. */
export const purgeQueues = ['purge-bullpen-1', 'purge-bare-1', 'purge-bare-2', 'purge-bullpen-2'];

/** Fills the purge queues with `jobsPerQueue` completed jobs each (again, for a further round). */
export async function seedPurgeQueues(redis: Redis, connection: BenchConnection, jobsPerQueue: number): Promise<void> {
  for (const name of purgeQueues) {
    await seedLiveJobs(connection, name);
    await cloneFinishedJobs(redis, name, 'completed', jobsPerQueue, 1);
  }
}

interface PurgeRound {
  /** Jobs Bullpen purged in the round (its two queues). */
  removed: number;
  bullpen: number;
  bare: number;
  ratio: number;
  /** PING p99 while Bullpen purges, and while the bare loop does (the machine's share of it). */
  pingBullpen: number;
  pingBare: number;
}

/**
 * Target 9: Bullpen's purge against a bare clean(0, 1000) loop, and the store's PING p99 while each
 * purges. Several rounds (re-seeded in between) give medians: on a shared 2-core machine one round
 * moves by ±20%.
 */
export async function purgeScenario(
  bullpen: ServerProcess,
  connectionId: string,
  redisPort: number,
  { rounds = 1, reseed }: { rounds?: number; reseed?: () => Promise<void> } = {},
): Promise<void> {
  const results: PurgeRound[] = [];
  for (let index = 0; index < rounds; index++) {
    if (index > 0) await reseed?.();
    results.push(await purgeRound(bullpen, connectionId, redisPort));
  }
  const median = (pick: (result: PurgeRound) => number) =>
    [...results.map(pick)].sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
  const [ratio, pingBullpen, pingBare] = [
    median((r) => r.ratio),
    median((r) => r.pingBullpen),
    median((r) => r.pingBare),
  ];
  const removed = results[0]?.removed ?? 0;
  const over = rounds > 1 ? `, median of ${rounds} rounds (${results.map((r) => r.ratio).join(' / ')})` : '';
  report(
    '9 purge',
    `jobs/s over ${removed} completed: Bullpen / bare clean(0,1000) loop${over}`,
    `${median((r) => r.bullpen)} / ${median((r) => r.bare)} (${ratio}×)`,
    '≥ 0.9×',
    ratio >= 0.9,
  );
  report(
    '9 purge',
    `Redis PING p99 ms while Bullpen purges (while the bare loop does)${rounds > 1 ? `, median of ${rounds}` : ''}`,
    `${pingBullpen} (${pingBare})`,
    '≤ 50 ms',
    pingBullpen <= 50,
  );
}

async function purgeRound(bullpen: ServerProcess, connectionId: string, redisPort: number): Promise<PurgeRound> {
  const purgeThroughBullpen = async (name: string) => {
    const response = await fetch(`${bullpen.url}/api/c/${connectionId}/queues/${name}/purge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirmName: name, statuses: ['completed'] }),
    });
    return ((await response.json()) as { totalRemoved?: number }).totalRemoved ?? 0;
  };
  const cleanLoop = async (name: string) => {
    const queue = new Queue(name, { connection: { host: '127.0.0.1', port: redisPort }, prefix });
    let total = 0;
    for (
      let batch = await queue.clean(0, 1000, 'completed');
      batch.length > 0;
      batch = await queue.clean(0, 1000, 'completed')
    )
      total += batch.length;
    await queue.close();
    return total;
  };
  const pinger = new Redis({ host: '127.0.0.1', port: redisPort });
  const totals = { bullpen: { removed: 0, ms: 0, ping: 0 }, bare: { removed: 0, ms: 0, ping: 0 } };
  for (const name of purgeQueues) {
    const side = name.startsWith('purge-bullpen') ? 'bullpen' : 'bare';
    const watcher = pingWatcher(pinger);
    const started = performance.now();
    totals[side].removed += side === 'bullpen' ? await purgeThroughBullpen(name) : await cleanLoop(name);
    totals[side].ms += performance.now() - started;
    totals[side].ping = Math.max(totals[side].ping, await watcher.stop());
  }
  pinger.disconnect();
  const rate = ({ removed, ms }: { removed: number; ms: number }) => Math.round((removed * 1000) / ms);
  const [bullpenRate, bareRate] = [rate(totals.bullpen), rate(totals.bare)];
  return {
    removed: totals.bullpen.removed,
    bullpen: bullpenRate,
    bare: bareRate,
    ratio: round(bullpenRate / Math.max(1, bareRate)),
    pingBullpen: round(totals.bullpen.ping),
    pingBare: round(totals.bare.ping),
  };
}
