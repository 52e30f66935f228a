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
    const outfile = path.join(repoRoot, `dist/rest-adapters/${name}.js`);
    await esbuild.build({ entryPoints: [path.join(repoRoot, entry)], outfile, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node22', logLevel: 'warning' });
  }
  return { ours: 'dist/rest-adapters/ours.js', stock: 'dist/rest-adapters/stock.js' };
}

/** The URLs of one figure, by subject; `c` its concurrency, `sequential` timed request by request (the list). */
function figures(url: Record<Subject, string>) {
  const job = (s: Subject) => `${url[s]}/api/c/bench/queues/${readQueue}/jobs/${readJobId}`;
  const page = (s: Subject) => `${url[s]}/api/c/bench/queues/pages/jobs?status=completed&page=1&pageSize=50`;
  const list = (s: Subject) => `${url[s]}/api/c/bench/queues?page=1&pageSize=100&sort=name`;
  const boardJob = `${url.bullBoard}/ui/api/queues/${readQueue}/${readJobId}`;
  const bareJob = `${url.bare}/queues/${readQueue}/jobs/${readJobId}`;
  return [
    { name: 'job detail c=1', c: 1, reference: 'bullBoard', urls: { ours: job('ours'), stock: job('stock'), bullBoard: boardJob, bare: bareJob } },
    { name: 'job detail c=16', c: 16, reference: 'bullBoard', urls: { ours: job('ours'), stock: job('stock'), bullBoard: boardJob, bare: bareJob } },
    { name: 'job logs c=16', c: 16, reference: 'bullBoard', urls: { ours: `${job('ours')}/logs`, stock: `${job('stock')}/logs`, bullBoard: `${boardJob}/logs`, bare: `${bareJob}/logs` } },
    { name: 'page of 50 c=1', c: 1, reference: 'bare', urls: { ours: page('ours'), stock: page('stock'), bare: `${url.bare}/queues/pages/jobs?status=completed&pageSize=50` } },
    { name: 'queue list c=1', c: 1, reference: 'ours', sequential: true, urls: { ours: list('ours'), stock: list('stock') } },
  ] as Array<{ name: string; c: number; reference: Subject; sequential?: boolean; urls: Partial<Record<Subject, string>> }>;
}

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
    await redis.rpush(`${prefix}:${readQueue}:${readJobId}:logs`, ...Array.from({ length: 20 }, (_, i) => `step ${i} done`));
    await seedLiveJobs(connection, 'pages');
    await cloneFinishedJobs(redis, 'pages', 'completed', 1000, 1);
    const scripts = await build();
    for (const name of ['ours', 'stock'] as const) {
      const dir = await mkdtemp(path.join(tmpdir(), `rest-adapters-${name}-`));
      dirs.push(dir);
      const env = { ...serviceEnvironment, NODE_ENV: 'production', PORT: String(ports[name]), HOST: '127.0.0.1', SERVICE_EMBEDDED_DIR: dir, SERVICE_AUTHLESS: 'true', SERVICE_ENV_CONNECTIONS: 'true', SERVICE_REDIS_URL_BENCH: redisProcess.url, SERVICE_REDIS_URL_BENCH_PREFIX: prefix, RATE_LIMIT_MAX: '1000000' };
      servers[name] = await startServer(scripts[name], [], env, ports[name], serviceNodeFlags);
    }
    const serverArgs = (port: number) => [String(ports.redis), String(port), String(queues)];
    servers.bullBoard = await startServer('test/bench/servers/bull-board.ts', serverArgs(ports.bullBoard), {}, ports.bullBoard);
    servers.bare = await startServer('test/bench/servers/bare.ts', serverArgs(ports.bare), {}, ports.bare);
    await waitUntilIdle(Object.values(servers).map((server) => server.pid));
    const url = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.url])) as Record<Subject, string>;
    await compare(figures(url), servers as Record<Subject, ServerProcess>);
  } finally {
    await Promise.allSettled(Object.values(servers).map((server) => server.stop()));
    redis.disconnect();
    await redisProcess.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
  console.log(`\n${renderTable()}`);
}

async function compare(list: ReturnType<typeof figures>, servers: Record<Subject, ServerProcess>): Promise<void> {
  const runs = new Map<string, Array<Partial<Record<Subject, LoadFigures>>>>();
  for (const figure of list) for (const target of Object.values(figure.urls)) await measure(target, { connections: 4, seconds: 2 });
  for (let index = 0; index < rounds; index++) {
    for (const figure of list) {
      const names = Object.keys(figure.urls) as Subject[];
      const row: Partial<Record<Subject, LoadFigures>> = {};
      for (const name of [...names.slice(index % names.length), ...names.slice(0, index % names.length)]) {
        const options = { seconds, pid: servers[name].pid };
        row[name] = figure.sequential ? await measureSequential(figure.urls[name]!, options) : await measure(figure.urls[name]!, { ...options, connections: figure.c });
        if (row[name]!.non2xx + row[name]!.errors > 0) throw new Error(`${figure.name}, ${name}: ${row[name]!.non2xx} non-2xx, ${row[name]!.errors} errors`);
      }
      runs.set(figure.name, [...(runs.get(figure.name) ?? []), row]);
    }
    console.log(`round ${index + 1} of ${rounds} done`);
  }
  for (const figure of list) summarize(figure, runs.get(figure.name)!);
}

function summarize(figure: ReturnType<typeof figures>[number], rows: Array<Partial<Record<Subject, LoadFigures>>>): void {
  const names = Object.keys(figure.urls) as Subject[];
  const ratio = (name: Subject, of: (one: LoadFigures) => number) => round(median(rows.map((row) => of(row[name]!) / Math.max(0.001, of(row[figure.reference]!)))));
  const values = names.map((name) => `${median(rows.map((row) => row[name]!.requestsPerSecond))} (${median(rows.map((row) => row[name]!.cpuMsPerRequest!))} ms)`);
  const perReference = figure.reference === 'ours' ? '' : `; vs ${figure.reference}: ours ${ratio('ours', (one) => one.requestsPerSecond)}× / stock ${ratio('stock', (one) => one.requestsPerSecond)}× req/s, ours ${ratio('ours', (one) => one.cpuMsPerRequest!)}× / stock ${ratio('stock', (one) => one.cpuMsPerRequest!)}× CPU`;
  const oursOverStock = round(median(rows.map((row) => row.ours!.requestsPerSecond / row.stock!.requestsPerSecond)));
  report('REST A/B', `${figure.name}, req/s (CPU ms per request): ${names.join(' / ')}`, `${values.join(' / ')}${perReference}; ours/stock ${oursOverStock}×`);
}

await main();
