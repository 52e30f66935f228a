import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntilIdle } from '../cpu.js';
import { measure, type LoadFigures } from '../load.js';
import { startServer, type ServerProcess } from '../processes.js';
import { manyQueueNames } from '../servers/shared.js';
import { report, round } from '../targets.js';
import { checkSeed, createBenchDatabase, seedPostgresBench } from './postgres-seed.js';

export interface PostgresBenchOptions {
  entry: { script: string; nodeFlags: string[]; env: Record<string, string> };
  ports: { bullpen: number; bullBoard: number };
  quick: boolean;
}

const connectionId = 'pg';
const bigQueue = 'archive-250k';
const bigCount = 250_000;
const readQueue = 'orders-0001';
const readJobId = '100';
const target = '31 postgres';

/**
 * Issue 31's figures: 200 PostgreSQL-backed queues of 1,000 jobs and one of
 * 250,000, in a database of its own (dropped after), served by Bullpen and
 * by bull-board's API (BullMQ 6's PostgreSQL adapter) side by side.
 */
export async function postgresScenario(options: PostgresBenchOptions): Promise<void> {
  const database = await createBenchDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-bullpen-pg-'));
  const servers: ServerProcess[] = [];
  try {
    const names = manyQueueNames(200);
    const logJob = { queue: readQueue, id: readJobId };
    const started = Date.now();
    await seedPostgresBench(database.url, { names, bigQueue, bigCount, logJob });
    const checked = await checkSeed(database.url, { queue: readQueue, bigQueue, bigCount, logJob });
    report(
      target,
      `seed: 200 queues × 1000 jobs and ${bigQueue} (${bigCount} completed) in ${database.name}, cloned by SQL from jobs a real Worker ran; read back through BullMQ's Queue API`,
      `${Date.now() - started} ms; ${checked}`,
    );
    const bullpen = await startServer(
      options.entry.script,
      [],
      {
        ...options.entry.env,
        NODE_ENV: 'production',
        PORT: String(options.ports.bullpen),
        HOST: '127.0.0.1',
        SERVICE_EMBEDDED_DIR: dataDir,
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_POSTGRES_URL_PG: database.url,
        RATE_LIMIT_MAX: '1000000',
      },
      options.ports.bullpen,
      options.entry.nodeFlags,
    );
    servers.push(bullpen);
    const board = await startServer(
      'test/bench/servers/bull-board-postgres.ts',
      [database.url, String(options.ports.bullBoard), [...names, bigQueue].join(',')],
      {},
      options.ports.bullBoard,
    );
    servers.push(board);
    await waitUntilIdle([bullpen.pid, board.pid]);
    await compareWithBullBoard(bullpen, board, options.quick);
    await bigPageAgainstSmall(bullpen, options.quick);
  } finally {
    await Promise.allSettled(servers.map((server) => server.stop()));
    await rm(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
type Pair = { ours: LoadFigures; theirs: LoadFigures };

/** Interleaved rounds (the order swapped each round), so a burst of the host's load weighs on both sides alike. */
async function pairedRounds(ours: string, theirs: string, connections: number, quick: boolean, pids: number[]) {
  const rounds = quick ? 3 : 5;
  const seconds = quick ? 2 : 3;
  const pairs: Pair[] = [];
  for (let index = 0; index < rounds; index++) {
    const run = (url: string, pid: number) => measure(url, { connections, seconds, pid });
    if (index % 2 === 0) {
      const first = await run(ours, pids[0]!);
      pairs.push({ ours: first, theirs: await run(theirs, pids[1]!) });
    } else {
      const second = await run(theirs, pids[1]!);
      pairs.push({ ours: await run(ours, pids[0]!), theirs: second });
    }
  }
  const errors = pairs.reduce(
    (sum, pair) => sum + pair.ours.errors + pair.ours.non2xx + pair.theirs.errors + pair.theirs.non2xx,
    0,
  );
  if (errors > 0) throw new Error(`${errors} failed requests comparing ${ours} with ${theirs}`);
  return pairs;
}

/** The median of a subject's figure and the median of the rounds' ratios (ours over theirs). */
function summary(pairs: Pair[], figure: (one: LoadFigures) => number) {
  return {
    ours: round(median(pairs.map((pair) => figure(pair.ours))), 3),
    theirs: round(median(pairs.map((pair) => figure(pair.theirs))), 3),
    ratio: round(median(pairs.map((pair) => figure(pair.ours) / Math.max(0.001, figure(pair.theirs))))),
  };
}

async function compareWithBullBoard(bullpen: ServerProcess, board: ServerProcess, quick: boolean): Promise<void> {
  const api = `${bullpen.url}/api/c/${connectionId}/queues`;
  const routes = {
    'queue list (Bullpen: a page of 100 with counts; bull-board: its list, every queue with counts)': [
      `${api}?limit=100&sort=name`,
      `${board.url}/ui/api/queues`,
    ],
    'job read': [`${api}/${readQueue}/jobs/${readJobId}`, `${board.url}/ui/api/queues/${readQueue}/${readJobId}`],
    'page of 50 completed (bull-board: its list with the active queue)': [
      `${api}/${readQueue}/jobs?status=completed&limit=50`,
      `${board.url}/ui/api/queues?activeQueue=${readQueue}&status=completed&page=1&jobsPerPage=50`,
    ],
  } as const;
  const pids = [bullpen.pid, board.pid];
  for (const [label, [ours, theirs]] of Object.entries(routes)) {
    for (const url of [ours, theirs]) await measure(url, { connections: 4, seconds: 2 });
    for (const connections of [1, 16]) {
      const pairs = await pairedRounds(ours, theirs, connections, quick, pids);
      const rps = summary(pairs, (one) => one.requestsPerSecond);
      report(
        target,
        `${label}, req/s c=${connections}: Bullpen / bull-board (medians of ${pairs.length} interleaved rounds; ratio: median of the rounds' ratios)`,
        `${rps.ours} / ${rps.theirs} (${rps.ratio}×)`,
        '≥ 1.5× bull-board',
        rps.ratio >= 1.5,
      );
      if (label === 'job read' && connections === 16) {
        const cpu = summary(pairs, (one) => one.cpuMsPerRequest!);
        report(
          target,
          "job read, server CPU ms per request c=16: Bullpen / bull-board (medians; ratio: median of the rounds' ratios)",
          `${cpu.ours} / ${cpu.theirs} (${cpu.ratio}×)`,
          '≤ 0.7× bull-board',
          cpu.ratio <= 0.7,
        );
      }
    }
  }
}

/** A page of 50 in the 250k-job queue against one in a 1k-job queue (same status, same page): no scan of the big one. */
async function bigPageAgainstSmall(bullpen: ServerProcess, quick: boolean): Promise<void> {
  const page = (queue: string) => `${bullpen.url}/api/c/${connectionId}/queues/${queue}/jobs?status=completed&limit=50`;
  const small = page(readQueue);
  const big = page(bigQueue);
  await measure(big, { connections: 4, seconds: 2 });
  for (const connections of [1, 16]) {
    const pairs = await pairedRounds(small, big, connections, quick, [bullpen.pid, bullpen.pid]);
    const rps = summary(pairs, (one) => one.requestsPerSecond);
    const p50 = summary(pairs, (one) => one.p50Ms);
    report(
      target,
      `page of 50 completed, req/s c=${connections}: 1k-job queue / ${bigCount / 1000}k-job queue (p50 ms ${p50.ours} / ${p50.theirs}; ratio: median of the rounds' ratios)`,
      `${rps.ours} / ${rps.theirs} (${rps.ratio}×)`,
      '≤ 1.1×',
      rps.ratio <= 1.1,
    );
  }
}
