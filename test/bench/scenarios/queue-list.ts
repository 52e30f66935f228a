import { measure, type LoadFigures } from '../load.js';
import type { ServerProcess } from '../processes.js';
import { report, round } from '../targets.js';

/**
 * Target 4: the queue list page of 100. CPU per page from one c=1 run, and
 * latency over `rounds` short c=1 rounds `spacingMs` apart (the name index
 * rescans in the background meanwhile; no request may wait for it).
 */
export async function queueListScenario(bullpen: ServerProcess, connectionId: string, options: { rounds: number; spacingMs: number; seconds: number; between?: () => Promise<void> }) {
  const url = `${bullpen.url}/api/c/${connectionId}/queues?page=1&pageSize=100&sort=name`;
  await fetch(url);
  const runs: LoadFigures[] = [];
  for (let round_ = 0; round_ < options.rounds; round_++) {
    const started = Date.now();
    runs.push(await measure(url, { connections: 1, seconds: options.seconds, pid: bullpen.pid }));
    if (round_ === options.rounds - 1) break;
    await options.between?.();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, options.spacingMs - (Date.now() - started))));
  }
  const cpu = Math.min(...runs.map((run) => run.cpuMsPerRequest!));
  report('4 queue list', 'server CPU ms per page of 100 (best round)', cpu, '≤ 2 ms', cpu <= 2);
  const p50 = Math.max(...runs.map((run) => run.p50Ms));
  const p99 = Math.max(...runs.map((run) => run.p99Ms));
  report('4 queue list', `c=1 p50 / p99 ms, worst of ${runs.length} rounds ${Math.round(options.spacingMs / 1000)} s apart`, `${p50} / ${p99} (${round(p99 / Math.max(0.01, p50))}×)`, 'p99 ≤ 3× p50', p99 <= 3 * Math.max(1, p50));
}
