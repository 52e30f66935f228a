import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntilIdle } from '../cpu.js';
import { repoRoot, startServer, type ServerProcess } from '../processes.js';
import type { BenchResults } from '../readme-table.js';
import { manyQueueNames } from '../servers/shared.js';
import { report, rows } from '../targets.js';
import { failures, pairedRounds, quietDatabase, summary, warm } from './postgres-rounds.js';
import { createBenchDatabase, seedPostgresBench } from './postgres-seed.js';
import { checkSeed } from './postgres-seed-check.js';

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
    const rounds = { quick: options.quick, settle: () => quietDatabase(database.url) };
    await bigPageAgainstSmall(bullpen, rounds);
    await compareWithBullBoard(bullpen, board, rounds);
  } finally {
    await Promise.allSettled(servers.map((server) => server.stop()));
    await rm(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

type Rounds = { quick: boolean; settle: () => Promise<void> };

/** Job read, page and list (last: bull-board's list keeps the database busy after a round) against bull-board. */
async function compareWithBullBoard(bullpen: ServerProcess, board: ServerProcess, rounds: Rounds): Promise<void> {
  const api = `${bullpen.url}/api/c/${connectionId}/queues`;
  const routes = {
    'job read': [`${api}/${readQueue}/jobs/${readJobId}`, `${board.url}/ui/api/queues/${readQueue}/${readJobId}`],
    'page of 50 completed (bull-board: its list with the active queue)': [
      `${api}/${readQueue}/jobs?status=completed&limit=50`,
      `${board.url}/ui/api/queues?activeQueue=${readQueue}&status=completed&page=1&jobsPerPage=50`,
    ],
    'queue list (Bullpen: a page of 100 with counts; bull-board: its list, every queue with counts)': [
      `${api}?limit=100&sort=name`,
      `${board.url}/ui/api/queues`,
    ],
  } as const;
  const pids = { ours: bullpen.pid, theirs: board.pid };
  for (const [label, [ours, theirs]] of Object.entries(routes)) {
    await warm(ours, theirs);
    for (const connections of [1, 16]) {
      const pairs = await pairedRounds({ ours, theirs }, pids, { connections, ...rounds });
      const rps = summary(pairs, (one) => one.requestsPerSecond);
      report(
        target,
        `${label}, req/s c=${connections}: Bullpen / bull-board (medians of ${pairs.length} interleaved rounds; ratio: median of the rounds' ratios)`,
        `${rps.ours} / ${rps.theirs} (${rps.ratio}×${failures(rps)})`,
        '≥ 1.5× bull-board',
        rps.ratio >= 1.5 && rps.failed.ours === 0,
      );
      if (label === 'job read' && connections === 16) {
        const cpu = summary(pairs, (one) => one.cpuMsPerRequest);
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
async function bigPageAgainstSmall(bullpen: ServerProcess, rounds: Rounds): Promise<void> {
  const page = (queue: string) => `${bullpen.url}/api/c/${connectionId}/queues/${queue}/jobs?status=completed&limit=50`;
  const small = page(readQueue);
  const big = page(bigQueue);
  await warm(small, big);
  for (const connections of [1, 16]) {
    const pids = { ours: bullpen.pid, theirs: bullpen.pid };
    const pairs = await pairedRounds({ ours: small, theirs: big }, pids, { connections, ...rounds });
    const rps = summary(pairs, (one) => one.requestsPerSecond);
    const p50 = summary(pairs, (one) => one.p50Ms);
    report(
      target,
      `page of 50 completed, req/s c=${connections}: 1k-job queue / ${bigCount / 1000}k-job queue (p50 ms ${p50.ours} / ${p50.theirs}; ratio: median of the rounds' ratios)`,
      `${rps.ours} / ${rps.theirs} (${rps.ratio}×${failures(rps)})`,
      '≤ 1.1×',
      rps.ratio <= 1.1 && rps.failed.ours + rps.failed.theirs === 0,
    );
  }
}

/**
 * `--only postgres` writes the results file too: the rows of the last
 * results other than these are kept (a row says from which run), so the
 * table keeps every figure while only the PostgreSQL ones were measured.
 */
export async function keepEarlierRows(): Promise<void> {
  const file = path.join(repoRoot, 'test', 'bench', 'results', 'latest.json');
  const earlier = JSON.parse(await readFile(file, 'utf8')) as BenchResults;
  const marker = earlier.rows.find((row) => row.figure.startsWith('rows before '));
  const kept = earlier.rows.filter((row) => row.target !== target && row !== marker);
  const own = rows.splice(0);
  rows.push(
    {
      target: '—',
      figure: `rows before ${target}'s`,
      value: marker?.value ?? `from the ${earlier.scale} run of ${earlier.date.slice(0, 10)}`,
      goal: '',
    },
    ...kept,
    ...own,
  );
}
