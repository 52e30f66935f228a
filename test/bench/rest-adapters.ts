/**
 * `npx tsx test/bench/rest-adapters.ts [--ports BASE] [--rounds N]`: the A/B
 * that decided how REST is served (README, Code map). Two builds of Bullpen
 * on one store, ours (server/main.ts: server/http/rest/) and one whose REST
 * API is trpc-to-openapi's stock express adapter over tRPC's caller
 * (servers/bullpen-stock-rest.ts), beside bull-board and the bare floor:
 * the job reads, a job page and the queue list, in N interleaved rounds, the
 * subjects' order rotated each round; ratios are medians of the rounds'
 * ratios (a paired comparison, as in scenarios/job-reads.ts). Prints one
 * table; writes no results file. Re-run it when tRPC or trpc-to-openapi is
 * upgraded: the stock adapter may have become fast enough to go back to.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { Redis } from 'ioredis';
import { serviceEnvironment, serviceNodeFlags } from '../../server/build/node-flags.mjs';
import { waitUntilIdle } from './cpu.js';
import { measure, measureSequential, type LoadFigures } from './load.js';
import { repoRoot, startServer, type ServerProcess } from './processes.js';
import { startRedis } from './redis-server.js';
import { cloneFinishedJobs, prefix, seedLiveJobs, seedManyQueues, seedTemplates } from './seed.js';
import { readJobId, readQueue } from './scenarios/job-reads.js';
import { renderTable, report, round } from './targets.js';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const base = option('--ports', 6470);
const rounds = option('--rounds', 5);
const seconds = 3;
const queues = 200;
const ports = { redis: base, ours: base + 1, stock: base + 2, bullBoard: base + 3, bare: base + 4 };
type Subject = keyof typeof ports;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Both Bullpen entries compiled alike (packages external), so only how REST is served differs. */
async function build(): Promise<Record<'ours' | 'stock', string>> {
  const entries = { ours: 'server/main.ts', stock: 'test/bench/servers/bullpen-stock-rest.ts' };
  for (const [name, entry] of Object.entries(entries)) {
    await esbuild.build({
      entryPoints: [path.join(repoRoot, entry)],
      outfile: path.join(repoRoot, `dist/rest-adapters/${name}.js`),
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
    });
  }
  return { ours: 'dist/rest-adapters/ours.js', stock: 'dist/rest-adapters/stock.js' };
}

interface Figure {
  name: string;
  /** Connections (autocannon); `sequential`: one at a time, timed request by request (the queue list). */
  c: number;
  sequential?: boolean;
  /** Whose req/s and CPU the others are divided by. */
  reference: Subject;
  urls: Partial<Record<Subject, string>>;
}

function figures(url: Record<Subject, string>): Figure[] {
  const api = (s: Subject) => `${url[s]}/api/c/bench/queues`;
  const job = (s: Subject) => `${api(s)}/${readQueue}/jobs/${readJobId}`;
  const page = (s: Subject) => `${api(s)}/pages/jobs?status=completed&page=1&pageSize=50`;
  const list = (s: Subject) => `${api(s)}?page=1&pageSize=100&sort=name`;
  const jobs = { ours: job('ours'), stock: job('stock') };
  const boardJob = `${url.bullBoard}/ui/api/queues/${readQueue}/${readJobId}`;
  const bareJob = `${url.bare}/queues/${readQueue}/jobs/${readJobId}`;
  const logs = {
    ours: `${jobs.ours}/logs`,
    stock: `${jobs.stock}/logs`,
    bullBoard: `${boardJob}/logs`,
    bare: `${bareJob}/logs`,
  };
  const barePage = `${url.bare}/queues/pages/jobs?status=completed&pageSize=50`;
  return [
    { name: 'job detail c=1', c: 1, reference: 'bullBoard', urls: { ...jobs, bullBoard: boardJob, bare: bareJob } },
    { name: 'job detail c=16', c: 16, reference: 'bullBoard', urls: { ...jobs, bullBoard: boardJob, bare: bareJob } },
    { name: 'job logs c=16', c: 16, reference: 'bullBoard', urls: logs },
    {
      name: 'page of 50 c=1',
      c: 1,
      reference: 'bare',
      urls: { ours: page('ours'), stock: page('stock'), bare: barePage },
    },
    {
      name: 'queue list c=1',
      c: 1,
      sequential: true,
      reference: 'ours',
      urls: { ours: list('ours'), stock: list('stock') },
    },
  ];
}

/** A Bullpen build as the bench runs one: authless, the bench store from the environment, limits out of the way. */
const bullpenEnv = (port: number, dir: string, redisUrl: string) => ({
  ...serviceEnvironment,
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  SERVICE_EMBEDDED_DIR: dir,
  SERVICE_AUTHLESS: 'true',
  SERVICE_ENV_CONNECTIONS: 'true',
  SERVICE_REDIS_URL_BENCH: redisUrl,
  SERVICE_REDIS_URL_BENCH_PREFIX: prefix,
  RATE_LIMIT_MAX: '1000000',
});

async function main(): Promise<void> {
  const redisProcess = await startRedis(ports.redis);
  const redis = new Redis({ port: ports.redis, host: '127.0.0.1' });
  const connection = { host: '127.0.0.1', port: ports.redis };
  const dirs: string[] = [];
  const servers: Partial<Record<Subject, ServerProcess>> = {};
  try {
    console.log('seeding…');
    await seedTemplates(connection);
    await seedManyQueues(connection, redis, queues);
    await redis.rpush(
      `${prefix}:${readQueue}:${readJobId}:logs`,
      ...Array.from({ length: 20 }, (_, i) => `step ${i} done`),
    );
    await seedLiveJobs(connection, 'pages');
    await cloneFinishedJobs(redis, 'pages', 'completed', 1000, 1);
    const scripts = await build();
    for (const name of ['ours', 'stock'] as const) {
      const dir = await mkdtemp(path.join(tmpdir(), `rest-adapters-${name}-`));
      dirs.push(dir);
      const env = bullpenEnv(ports[name], dir, redisProcess.url);
      servers[name] = await startServer(scripts[name], [], env, ports[name], serviceNodeFlags);
    }
    const serverArgs = (port: number) => [String(ports.redis), String(port), String(queues)];
    servers.bullBoard = await startServer(
      'test/bench/servers/bull-board.ts',
      serverArgs(ports.bullBoard),
      {},
      ports.bullBoard,
    );
    servers.bare = await startServer('test/bench/servers/bare.ts', serverArgs(ports.bare), {}, ports.bare);
    const all = servers as Record<Subject, ServerProcess>;
    await waitUntilIdle(Object.values(all).map((server) => server.pid));
    const url = Object.fromEntries(Object.entries(all).map(([name, server]) => [name, server.url])) as Record<
      Subject,
      string
    >;
    await compare(figures(url), all);
  } finally {
    await Promise.allSettled(Object.values(servers).map((server) => server.stop()));
    redis.disconnect();
    await redisProcess.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
  console.log(`\n${renderTable()}`);
}

type Row = Partial<Record<Subject, LoadFigures>>;

async function measureOne(figure: Figure, name: Subject, pid: number): Promise<LoadFigures> {
  const url = figure.urls[name]!;
  const measured = figure.sequential
    ? await measureSequential(url, { seconds, pid })
    : await measure(url, { seconds, pid, connections: figure.c });
  const failed = measured.non2xx + measured.errors;
  if (failed > 0) throw new Error(`${figure.name}, ${name}: ${failed} answers not 2xx`);
  return measured;
}

async function compare(list: Figure[], servers: Record<Subject, ServerProcess>): Promise<void> {
  const runs = new Map<string, Row[]>();
  // Warm every subject alike (JIT, connections, script cache) before anything is counted.
  for (const figure of list) {
    for (const target of Object.values(figure.urls)) await measure(target, { connections: 4, seconds: 2 });
  }
  for (let index = 0; index < rounds; index++) {
    for (const figure of list) {
      const names = Object.keys(figure.urls) as Subject[];
      const row: Row = {};
      const turn = index % names.length;
      for (const name of [...names.slice(turn), ...names.slice(0, turn)])
        row[name] = await measureOne(figure, name, servers[name].pid);
      runs.set(figure.name, [...(runs.get(figure.name) ?? []), row]);
    }
    console.log(`round ${index + 1} of ${rounds} done`);
  }
  for (const figure of list) summarize(figure, runs.get(figure.name)!);
}

function summarize(figure: Figure, rows: Row[]): void {
  const names = Object.keys(figure.urls) as Subject[];
  const reqs = (one: LoadFigures) => one.requestsPerSecond;
  const cpu = (one: LoadFigures) => one.cpuMsPerRequest!;
  const ratio = (name: Subject, of: (one: LoadFigures) => number, to = figure.reference) =>
    round(median(rows.map((row) => of(row[name]!) / Math.max(0.001, of(row[to]!)))));
  const mid = (name: Subject, of: (one: LoadFigures) => number) => median(rows.map((row) => of(row[name]!)));
  const values = names.map((name) => `${mid(name, reqs)} (${mid(name, cpu)} ms)`);
  const against =
    figure.reference === 'ours'
      ? ''
      : `; vs ${figure.reference}: ours ${ratio('ours', reqs)}× / stock ${ratio('stock', reqs)}× req/s, ` +
        `ours ${ratio('ours', cpu)}× / stock ${ratio('stock', cpu)}× CPU`;
  const value = `${values.join(' / ')}${against}; ours/stock ${ratio('ours', reqs, 'stock')}×`;
  report('REST A/B', `${figure.name}, req/s (CPU ms per request): ${names.join(' / ')}`, value);
}

await main();
