/**
 * npm run bench [-- --quick]: seeds its own workload into a redis-server it
 * starts on a spare loopback port, runs Bullpen, bull-board and a bare
 * express floor as separate processes, measures them side by side, prints a
 * table and writes JSON to bench/results/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { measure, type LoadFigures } from './load.js';
import { repoRoot, startServer, type ServerProcess } from './processes.js';
import { startRedis } from './redis-server.js';
import { cloneFinishedJobs, prefix, seedLiveJobs, seedManyQueues, seedTemplates } from './seed.js';

const quick = process.argv.includes('--quick');
/** `--only=search,purge` runs just those scenarios (the seed is always whole). */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const scale = quick
  ? { queues: 100, bigJobs: 50_000, smallJobs: 1_000, purgeJobs: 20_000, seconds: 2 }
  : { queues: 1_000, bigJobs: 1_000_000, smallJobs: 1_000, purgeJobs: 250_000, seconds: 5 };
const ports = { redis: 6410, bullpen: 6411, bullBoard: 6412, bare: 6413 };
const connectionId = 'bench';
/** Two queues each, purged in ABBA order so neither side always runs on the fresher store. */
const purgeQueues = ['purge-bullpen-1', 'purge-bare-1', 'purge-bare-2', 'purge-bullpen-2'];

interface Row {
  scenario: string;
  subject: string;
  figures: Record<string, number | string>;
}
const rows: Row[] = [];
const record = (scenario: string, subject: string, figures: Record<string, number | string>) => {
  rows.push({ scenario, subject, figures });
  console.log(`  ${scenario} | ${subject} | ${JSON.stringify(figures)}`);
};

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

async function seed(redis: Redis, connection: { host: string; port: number }): Promise<void> {
  console.log(`seeding (${quick ? 'quick' : 'full'} scale)…`);
  const [, templatesMs] = await timed(() => seedTemplates(connection));
  const [, manyMs] = await timed(() => seedManyQueues(connection, redis, scale.queues));
  await seedLiveJobs(connection, 'big');
  const [, bigMs] = await timed(() => cloneFinishedJobs(redis, 'big', 'completed', scale.bigJobs, 1));
  await cloneFinishedJobs(redis, 'big', 'failed', scale.bigJobs / 10, scale.bigJobs + 1);
  await seedLiveJobs(connection, 'small');
  await cloneFinishedJobs(redis, 'small', 'completed', scale.smallJobs, 1);
  for (const name of purgeQueues) {
    await seedLiveJobs(connection, name);
    await cloneFinishedJobs(redis, name, 'completed', scale.purgeJobs, 1);
  }
  record('seed', 'workload', { templatesMs: Math.round(templatesMs), queuesMs: Math.round(manyMs), bigQueueMs: Math.round(bigMs), redisKeys: await redis.dbsize() });
}

async function loadPair(scenario: string, subject: string, url: string): Promise<Record<number, LoadFigures>> {
  const figures: Record<number, LoadFigures> = {};
  for (const connections of [1, 16]) {
    figures[connections] = await measure(url, { connections, seconds: scale.seconds });
    record(scenario, `${subject} c=${connections}`, { ...figures[connections] });
  }
  return figures;
}

const trpcUrl = (base: string, procedure: string, input: unknown) => `${base}/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;

async function queueListScenario(bullpen: ServerProcess, bullBoard: ServerProcess, bare: ServerProcess) {
  const scenario = `1. queue list page (100 of ${scale.queues})`;
  const ours = await loadPair(scenario, 'bullpen REST', `${bullpen.url}/api/c/${connectionId}/queues?page=1&pageSize=100&sort=name`);
  const board = await loadPair(scenario, 'bull-board', `${bullBoard.url}/ui/api/queues?page=1&jobsPerPage=10`);
  const floor = await loadPair(scenario, 'bare express', `${bare.url}/queues?page=1&pageSize=100`);
  record(scenario, 'ratios', {
    throughputVsBullBoard: round(ours[16]!.requestsPerSecond / Math.max(1, board[16]!.requestsPerSecond)),
    p50VsBare_c1: round(ours[1]!.p50Ms / Math.max(0.01, floor[1]!.p50Ms)),
    targets: 'throughput >= 5x bull-board; latency <= 1.3x bare',
  });
}

async function jobListScenario(bullpen: ServerProcess) {
  const scenario = '2. job list page of 50';
  const small = await loadPair(scenario, `${scale.smallJobs}-job status`, `${bullpen.url}/api/c/${connectionId}/queues/small/jobs?status=completed&page=1&pageSize=50`);
  const big = await loadPair(scenario, `${scale.bigJobs}-job status`, `${bullpen.url}/api/c/${connectionId}/queues/big/jobs?status=completed&page=1&pageSize=50`);
  const deep = await measure(`${bullpen.url}/api/c/${connectionId}/queues/big/jobs?status=completed&page=${Math.floor(scale.bigJobs / 50 / 2)}&pageSize=50`, { connections: 1, seconds: scale.seconds });
  record(scenario, 'big status, middle page c=1', { ...deep });
  record(scenario, 'ratios', { bigVsSmall_p50_c1: round(big[1]!.p50Ms / Math.max(0.01, small[1]!.p50Ms)), target: '<= 1.5x' });
}

async function searchScenario(bullpen: ServerProcess) {
  const scenario = `3. search over ${scale.bigJobs + scale.bigJobs / 10} jobs`;
  let cursor: string | undefined;
  let scanned = 0;
  let matches = 0;
  let peakRss = await bullpen.rssMb();
  const started = performance.now();
  for (let request = 0; request < 1000; request++) {
    const query = new URLSearchParams({ q: 'customer-42', in: 'data', status: 'completed', limit: '100' });
    if (cursor) query.set('cursor', cursor);
    const response = await fetch(`${bullpen.url}/api/c/${connectionId}/queues/big/search?${query}`);
    const body = (await response.json()) as { cursor?: string | null; done?: boolean; scanned?: number; jobs?: unknown[]; matches?: unknown[] };
    if (!response.ok) throw new Error(`search failed: ${JSON.stringify(body)}`);
    scanned += body.scanned ?? 0;
    matches += (body.jobs ?? body.matches ?? []).length;
    peakRss = Math.max(peakRss, await bullpen.rssMb());
    if (body.done || !body.cursor) break;
    cursor = body.cursor;
  }
  const seconds = (performance.now() - started) / 1000;
  record(scenario, 'bullpen REST, cursor to the end', { seconds: round(seconds), scanned, matches, scannedPerSecond: Math.round(scanned / seconds), matchesPerSecond: Math.round(matches / seconds), peakRssMb: peakRss });
}

async function purgeScenario(bullpen: ServerProcess, redisPort: number) {
  const scenario = `4. purge ${scale.purgeJobs} completed`;
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
  const totals = { bullpen: { removed: 0, ms: 0 }, bare: { removed: 0, ms: 0 } };
  for (const name of purgeQueues) {
    const side = name.startsWith('purge-bullpen') ? 'bullpen' : 'bare';
    const [removed, ms] = await timed(() => (side === 'bullpen' ? purgeThroughBullpen(name) : cleanLoop(name)));
    totals[side].removed += removed;
    totals[side].ms += ms;
  }
  const rate = ({ removed, ms }: { removed: number; ms: number }) => Math.round((removed * 1000) / ms);
  record(scenario, 'bullpen purge (batches of 1000), 2 runs', { removed: totals.bullpen.removed, ms: Math.round(totals.bullpen.ms), jobsPerSecond: rate(totals.bullpen) });
  record(scenario, 'bare clean(0, 1000) loop, 2 runs', { removed: totals.bare.removed, ms: Math.round(totals.bare.ms), jobsPerSecond: rate(totals.bare) });
  record(scenario, 'ratios', { bullpenVsBare: round(rate(totals.bullpen) / Math.max(1, rate(totals.bare))), target: '>= 0.9x' });
}

async function overheadScenario(bullpen: ServerProcess, bare: ServerProcess) {
  const scenario = '5. one procedure: REST vs tRPC vs bare';
  const rest = await measure(`${bullpen.url}/api/mode`, { connections: 16, seconds: scale.seconds });
  const trpc = await measure(trpcUrl(bullpen.url, 'system.mode', undefined).replace('?input=undefined', ''), { connections: 16, seconds: scale.seconds });
  const floor = await measure(`${bare.url}/mode`, { connections: 16, seconds: scale.seconds });
  record(scenario, 'GET /api/mode (REST) c=16', { ...rest });
  record(scenario, 'system.mode (tRPC) c=16', { ...trpc });
  record(scenario, 'bare express c=16', { ...floor });
  record(scenario, 'ratios', { restVsTrpc_p50: round(rest.p50Ms / Math.max(0.01, trpc.p50Ms)), restVsTrpc_throughput: round(trpc.requestsPerSecond / Math.max(1, rest.requestsPerSecond)), target: 'REST overhead <= 1.3x' });
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

async function main(): Promise<void> {
  const redisProcess = await startRedis(ports.redis);
  const redis = new Redis({ port: ports.redis, host: '127.0.0.1' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-bullpen-'));
  const servers: ServerProcess[] = [];
  try {
    await seed(redis, { host: '127.0.0.1', port: ports.redis });
    const bullpen = await startServer('server/main.ts', [], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(ports.bullpen),
      HOST: '127.0.0.1',
      SERVICE_EMBEDDED_DIR: dataDir,
      SERVICE_AUTHLESS: 'true',
      SERVICE_ENV_CONNECTIONS: 'true',
      SERVICE_REDIS_URL_BENCH: redisProcess.url,
      SERVICE_REDIS_URL_BENCH_PREFIX: prefix,
      DISABLE_RATE_LIMIT: 'true',
    }, ports.bullpen);
    servers.push(bullpen);
    const serverArgs = (port: number) => [String(ports.redis), String(port), String(scale.queues)];
    const bullBoard = await startServer('bench/servers/bull-board.ts', serverArgs(ports.bullBoard), {}, ports.bullBoard);
    servers.push(bullBoard);
    const bare = await startServer('bench/servers/bare.ts', serverArgs(ports.bare), {}, ports.bare);
    servers.push(bare);

    const rssIdle = await bullpen.rssMb();
    const scenarios: Array<[string, () => Promise<void>]> = [
      ['queue list', () => queueListScenario(bullpen, bullBoard, bare)],
      ['job list', () => jobListScenario(bullpen)],
      ['search', () => searchScenario(bullpen)],
      ['purge', () => purgeScenario(bullpen, ports.redis)],
      ['overhead', () => overheadScenario(bullpen, bare)],
    ];
    const rssAfterRounds: number[] = [];
    for (const [name, run] of scenarios) {
      if (only && !only.some((wanted) => name.startsWith(wanted))) continue;
      try {
        await run();
      } catch (error) {
        record(name, 'FAILED', { error: (error as Error).message.slice(0, 200) });
      }
      rssAfterRounds.push(await bullpen.rssMb());
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    record('6. bullpen RSS', `${scale.queues} queues`, { idleMb: rssIdle, afterEachScenarioMb: rssAfterRounds.join(' / '), settledMb: await bullpen.rssMb(), target: '<= 150 MB' });
  } finally {
    await Promise.allSettled(servers.map((server) => server.stop()));
    redis.disconnect();
    await redisProcess.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  await writeResults();
}

async function writeResults(): Promise<void> {
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version };
  const results = { date: new Date().toISOString(), scale: quick ? 'quick' : 'full', machine, rows };
  const directory = path.join(repoRoot, 'bench', 'results');
  await mkdir(directory, { recursive: true });
  const body = `${JSON.stringify(results, null, 2)}\n`;
  await writeFile(path.join(directory, `${results.date.replace(/[:.]/g, '-')}.json`), body);
  await writeFile(path.join(directory, 'latest.json'), body);
  console.log(`\n${renderTable()}\nmachine: ${JSON.stringify(machine)}\nresults: bench/results/latest.json`);
}

function renderTable(): string {
  const lines = rows.map((row) => [row.scenario, row.subject, Object.entries(row.figures).map(([key, value]) => `${key}=${value}`).join(' ')]);
  const widths = [0, 1].map((column) => Math.max(...lines.map((line) => line[column]!.length)));
  return lines.map((line) => `${line[0]!.padEnd(widths[0]!)}  ${line[1]!.padEnd(widths[1]!)}  ${line[2]}`).join('\n');
}

process.on('exit', (code) => code === 0 && rows.length === 0 && console.error('bench: exited before measuring anything'));
await main();
