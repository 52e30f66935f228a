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

type Side = Record<1 | 16, LoadFigures>;
type SubjectName = keyof Subjects;

async function side(url: string, pid: number, seconds: number): Promise<Side> {
  return {
    1: await measure(url, { connections: 1, seconds, pid }),
    16: await measure(url, { connections: 16, seconds, pid }),
  };
}

/** Interleaved rounds of 3 s, the subjects' order rotated each round. */
const rounds = 7;
const roundSeconds = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Every subject's figures, round by round. A round measures the subjects
 * back to back, so the host's load at that moment weighs on all of them;
 * the ratios are taken within each round and their median reported (a
 * paired comparison). Medians of each subject's own rounds, compared
 * afterwards, let a burst of load in one subject's round decide the ratio:
 * the same code read 0.75× and 1.31× in two runs, and per-round ratios of
 * one run spread from 0.82× to 1.43× (git log -p -- README.md, Benchmarks).
 */
async function sides(
  urls: Record<SubjectName, string>,
  subjects: Subjects,
  seconds: number,
): Promise<Record<SubjectName, Side[]>> {
  const names = Object.keys(urls) as SubjectName[];
  // Warm every subject alike (JIT, connections, script cache) before anything is counted.
  for (const name of names) await measure(urls[name], { connections: 4, seconds: 2 });
  const runs = Object.fromEntries(names.map((name) => [name, [] as Side[]])) as Record<SubjectName, Side[]>;
  for (let round_ = 0; round_ < rounds; round_++) {
    for (const name of [...names.slice(round_ % names.length), ...names.slice(0, round_ % names.length)])
      runs[name].push(await side(urls[name], subjects[name].pid, seconds));
  }
  return runs;
}

/** The median over rounds of a subject's figure, and the median of the rounds' ratios of ours to bull-board's. */
function compare(runs: Record<SubjectName, Side[]>, figure: (side: Side) => number) {
  const mid = (name: SubjectName) => Math.round(median(runs[name].map(figure)) * 1000) / 1000;
  const ratio = round(
    median(runs.bullpen.map((ours, index) => figure(ours) / Math.max(0.001, figure(runs.bullBoard[index]!)))),
  );
  return { ours: mid('bullpen'), board: mid('bullBoard'), bare: mid('bare'), ratio };
}

/** Targets 2 and 3: GET one job and its logs, side by side, with server CPU and Redis commands per request. */
export async function jobReadScenario(
  subjects: Subjects,
  redis: Redis,
  connectionId: string,
  seconds: number,
): Promise<void> {
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
  const perRound = Math.min(seconds, roundSeconds);
  for (const [label, urls] of Object.entries(routes)) {
    const runs = await sides(urls, subjects, perRound);
    for (const c of [1, 16] as const) {
      const { ours, board, bare, ratio } = compare(runs, (one) => one[c].requestsPerSecond);
      report(
        '2 job reads',
        `${label} req/s c=${c}: Bullpen / bull-board / bare (medians of ${rounds} interleaved rounds of ${perRound} s; ratio: median of the rounds' ratios)`,
        `${ours} / ${board} / ${bare} (${ratio}×)`,
        '≥ 1.0× bull-board',
        ratio >= 1,
      );
    }
    const commands = await commandsPerRequest(redis, urls.bullpen);
    const boardCommands = await commandsPerRequest(redis, urls.bullBoard);
    const limit = label === 'detail' ? 1 : 2;
    report(
      '2 job reads',
      `${label}: Redis commands sent per request (a script counts once), Bullpen (bull-board)`,
      `${commands} (${boardCommands})`,
      `≤ ${limit}`,
      commands <= limit,
    );
    if (label === 'detail') {
      const { ours, board, bare, ratio } = compare(runs, (one) => one[16].cpuMsPerRequest!);
      report(
        '3 fixed cost',
        "server CPU ms per job request c=16: Bullpen / bull-board / bare (medians; ratio: median of the rounds' ratios)",
        `${ours} / ${board} / ${bare} (${ratio}×)`,
        '≤ 1.2× bull-board',
        ratio <= 1.2,
      );
    }
  }
}

/** Target 5: a page of 50 completed jobs against the bare BullMQ route. */
export async function jobPageScenario(
  subjects: Subjects,
  connectionId: string,
  queueName: string,
  seconds: number,
): Promise<void> {
  const ours = await measure(
    `${subjects.bullpen.url}/api/c/${connectionId}/queues/${queueName}/jobs?status=completed&page=1&pageSize=50`,
    { connections: 1, seconds },
  );
  const bare = await measure(`${subjects.bare.url}/queues/${queueName}/jobs?status=completed&pageSize=50`, {
    connections: 1,
    seconds,
  });
  const ratio = round(ours.requestsPerSecond / Math.max(1, bare.requestsPerSecond));
  report(
    '5 job pages',
    'page of 50 completed, req/s c=1: Bullpen / bare',
    `${ours.requestsPerSecond} / ${bare.requestsPerSecond} (${ratio}×)`,
    '≥ 1.5× bare',
    ratio >= 1.5,
  );
}
