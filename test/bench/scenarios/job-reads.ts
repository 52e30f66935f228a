import type { Redis } from 'ioredis';
import { measure, type LoadFigures } from '../load.js';
import type { ServerProcess } from '../processes.js';
import { clientCommandsDuring } from '../redis-stats.js';
import { report, round } from '../targets.js';

export interface Subjects {
  bullpen: ServerProcess;
  bullBoard: ServerProcess;
  bare: ServerProcess;
}

/** A job of a queue every subject serves (bull-board knows only the queues it was given), with log lines. */
export const readQueue = 'orders-0001';
export const readJobId = '100';

/** Commands a server sends per request (a script counts once): its Redis round trips when it does not pipeline. */
async function commandsPerRequest(redis: Redis, url: string, requests = 50): Promise<number> {
  await fetch(url); // warm: connection, scripts
  const sent = await clientCommandsDuring(redis, async () => {
    for (let i = 0; i < requests; i++) await (await fetch(url)).arrayBuffer();
  });
  return round(sent / requests);
}

async function side(url: string, pid: number, seconds: number): Promise<Record<1 | 16, LoadFigures>> {
  // Warm every subject alike (JIT, connections, script cache) before anything is counted.
  await measure(url, { connections: 4, seconds: 2 });
  return {
    1: await measure(url, { connections: 1, seconds, pid }),
    16: await measure(url, { connections: 16, seconds, pid }),
  };
}

/** Targets 2 and 3: GET one job and its logs, side by side, with server CPU and Redis commands per request. */
export async function jobReadScenario(subjects: Subjects, redis: Redis, connectionId: string, seconds: number): Promise<void> {
  const routes = {
    detail: {
      bullpen: `${subjects.bullpen.url}/api/c/${connectionId}/queues/${readQueue}/jobs/${readJobId}`,
      bullBoard: `${subjects.bullBoard.url}/ui/api/queues/${readQueue}/${readJobId}`,
      bare: `${subjects.bare.url}/queues/${readQueue}/jobs/${readJobId}`,
    },
    logs: {
      bullpen: `${subjects.bullpen.url}/api/c/${connectionId}/queues/${readQueue}/jobs/${readJobId}/logs`,
      bullBoard: `${subjects.bullBoard.url}/ui/api/queues/${readQueue}/${readJobId}/logs`,
      bare: `${subjects.bare.url}/queues/${readQueue}/jobs/${readJobId}/logs`,
    },
  };
  for (const [label, urls] of Object.entries(routes)) {
    const ours = await side(urls.bullpen, subjects.bullpen.pid, seconds);
    const board = await side(urls.bullBoard, subjects.bullBoard.pid, seconds);
    const bare = await side(urls.bare, subjects.bare.pid, seconds);
    for (const c of [1, 16] as const) {
      const ratio = round(ours[c].requestsPerSecond / Math.max(1, board[c].requestsPerSecond));
      report('2 job reads', `${label} req/s c=${c}: Bullpen / bull-board / bare`, `${ours[c].requestsPerSecond} / ${board[c].requestsPerSecond} / ${bare[c].requestsPerSecond} (${ratio}×)`, '≥ 1.0× bull-board', ratio >= 1);
    }
    const commands = await commandsPerRequest(redis, urls.bullpen);
    const boardCommands = await commandsPerRequest(redis, urls.bullBoard);
    const limit = label === 'detail' ? 1 : 2;
    report('2 job reads', `${label}: Redis commands sent per request (a script counts once), Bullpen (bull-board)`, `${commands} (${boardCommands})`, `≤ ${limit}`, commands <= limit);
    if (label === 'detail') {
      const cpu = round(ours[16].cpuMsPerRequest! / Math.max(0.001, board[16].cpuMsPerRequest!));
      report('3 fixed cost', 'server CPU ms per job request c=16: Bullpen / bull-board / bare', `${ours[16].cpuMsPerRequest} / ${board[16].cpuMsPerRequest} / ${bare[16].cpuMsPerRequest} (${cpu}×)`, '≤ 1.2× bull-board', cpu <= 1.2);
    }
  }
}

/** Target 5: a page of 50 completed jobs against the bare BullMQ route. */
export async function jobPageScenario(subjects: Subjects, connectionId: string, queueName: string, seconds: number): Promise<void> {
  const ours = await measure(`${subjects.bullpen.url}/api/c/${connectionId}/queues/${queueName}/jobs?status=completed&page=1&pageSize=50`, { connections: 1, seconds });
  const bare = await measure(`${subjects.bare.url}/queues/${queueName}/jobs?status=completed&pageSize=50`, { connections: 1, seconds });
  const ratio = round(ours.requestsPerSecond / Math.max(1, bare.requestsPerSecond));
  report('5 job pages', 'page of 50 completed, req/s c=1: Bullpen / bare', `${ours.requestsPerSecond} / ${bare.requestsPerSecond} (${ratio}×)`, '≥ 1.5× bare', ratio >= 1.5);
}
