import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { ServerProcess } from '../processes.js';
import { pingWatcher } from '../redis-stats.js';
import { prefix } from '../seed.js';
import { report, round } from '../targets.js';

/** Two queues a side, purged in ABBA order so neither side always runs on the fresher store. */
export const purgeQueues = ['purge-bullpen-1', 'purge-bare-1', 'purge-bare-2', 'purge-bullpen-2'];

/** Target 9: Bullpen's purge against a bare clean(0, 1000) loop, and the store's PING p99 while Bullpen purges. */
export async function purgeScenario(bullpen: ServerProcess, connectionId: string, redisPort: number): Promise<void> {
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
    for (let batch = await queue.clean(0, 1000, 'completed'); batch.length > 0; batch = await queue.clean(0, 1000, 'completed')) total += batch.length;
    await queue.close();
    return total;
  };
  const pinger = new Redis({ host: '127.0.0.1', port: redisPort });
  const totals = { bullpen: { removed: 0, ms: 0 }, bare: { removed: 0, ms: 0 } };
  let pingP99 = 0;
  for (const name of purgeQueues) {
    const side = name.startsWith('purge-bullpen') ? 'bullpen' : 'bare';
    const watcher = side === 'bullpen' ? pingWatcher(pinger) : undefined;
    const started = performance.now();
    totals[side].removed += side === 'bullpen' ? await purgeThroughBullpen(name) : await cleanLoop(name);
    totals[side].ms += performance.now() - started;
    if (watcher) pingP99 = Math.max(pingP99, await watcher.stop());
  }
  pinger.disconnect();
  const rate = ({ removed, ms }: { removed: number; ms: number }) => Math.round((removed * 1000) / ms);
  const ratio = round(rate(totals.bullpen) / Math.max(1, rate(totals.bare)));
  report('9 purge', `jobs/s over ${totals.bullpen.removed} completed: Bullpen / bare clean(0,1000) loop`, `${rate(totals.bullpen)} / ${rate(totals.bare)} (${ratio}×)`, '≥ 0.9×', ratio >= 0.9);
  report('9 purge', 'Redis PING p99 ms while Bullpen purges', round(pingP99), '≤ 50 ms', pingP99 <= 50);
}
