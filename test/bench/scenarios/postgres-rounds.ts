import autocannon from 'autocannon';
import pg from 'pg';
import { cpuMs } from '../cpu.js';
import { round } from '../targets.js';

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  cpuMsPerRequest: number;
  /** Errors, timeouts and non-2xx answers. */
  failed: number;
}

/**
 * As load.ts's measure, with req/s to two decimals (bull-board's list of 201
 * PostgreSQL queues answers a few a second) and a 60 s request timeout.
 */
async function measure(url: string, options: { connections: number; seconds: number; pid?: number }) {
  const before = options.pid ? await cpuMs(options.pid) : 0;
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, timeout: 60 });
  const cpu = options.pid ? (await cpuMs(options.pid)) - before : 0;
  return {
    requestsPerSecond: round(result.requests.total / options.seconds, 2),
    p50Ms: result.latency.p50,
    cpuMsPerRequest: round(cpu / Math.max(1, result.requests.total), 3),
    failed: result.errors + result.timeouts + result.non2xx,
  } satisfies LoadFigures;
}

/** Both URLs warmed alike (JIT, pools, plans) before anything is counted. */
export async function warm(...urls: string[]): Promise<void> {
  for (const url of urls) await measure(url, { connections: 4, seconds: 2 });
}

export type Pair = { ours: LoadFigures; theirs: LoadFigures };

/**
 * Waits (up to 120 s) until the database runs no statement but this one: a
 * request autocannon stopped waiting for still runs on the server (bull-board's
 * list of 201 queues takes seconds), and would weigh on the next measurement.
 */
export async function quietDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    while (Date.now() - started < 120_000) {
      const { rows } = await client.query<{ busy: number }>(
        `SELECT COUNT(*)::int AS busy FROM pg_stat_activity
          WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      if (rows[0]!.busy === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}

/** Interleaved rounds (the order swapped each round), so a burst of the host's load weighs on both sides alike. */
export async function pairedRounds(
  urls: { ours: string; theirs: string },
  pids: { ours: number; theirs: number },
  options: { connections: number; quick: boolean; settle: () => Promise<void> },
): Promise<Pair[]> {
  const rounds = options.quick ? 3 : 5;
  const seconds = options.quick ? 2 : 3;
  const run = async (side: 'ours' | 'theirs') => {
    await options.settle();
    return measure(urls[side], { connections: options.connections, seconds, pid: pids[side] });
  };
  const pairs: Pair[] = [];
  for (let index = 0; index < rounds; index++) {
    if (index % 2 === 0) {
      const ours = await run('ours');
      pairs.push({ ours, theirs: await run('theirs') });
    } else {
      const theirs = await run('theirs');
      pairs.push({ ours: await run('ours'), theirs });
    }
  }
  return pairs;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median of each side's figure, the median of the rounds' ratios (ours over theirs), and the failed requests. */
export function summary(pairs: Pair[], figure: (one: LoadFigures) => number) {
  const failed = (side: 'ours' | 'theirs') => pairs.reduce((sum, pair) => sum + pair[side].failed, 0);
  return {
    ours: round(median(pairs.map((pair) => figure(pair.ours))), 3),
    theirs: round(median(pairs.map((pair) => figure(pair.theirs))), 3),
    ratio: round(median(pairs.map((pair) => figure(pair.ours) / Math.max(0.001, figure(pair.theirs))))),
    failed: { ours: failed('ours'), theirs: failed('theirs') },
  };
}

/** ", n failed / m failed" when a side had failed requests (timeouts, errors, non-2xx). */
export const failures = ({ failed }: ReturnType<typeof summary>) =>
  failed.ours + failed.theirs > 0 ? `; failed requests ${failed.ours} / ${failed.theirs}` : '';
