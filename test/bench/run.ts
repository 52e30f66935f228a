/**
 * npm run bench [-- --quick] [-- --only many-queues|purge|bulk|cluster|streams] [-- --ports BASE]:
 * seeds its own workload into a redis-server it starts on :6410 (or BASE,
 * the servers on the next ports), runs Bullpen, bull-board and a bare
 * express floor as separate processes, and prints ONE table of every figure
 * of issue 16 next to its target (✓/✗); writes test/bench/results/latest.json.
 * `--only many-queues` runs the 10,000-queue store alone (index, list
 * filters and totals, metrics, Prometheus) and writes no results file;
 * `--only purge [--rounds N]` the purge figures alone (N rounds, default 3);
 * `--only postgres` the PostgreSQL-backed store against bull-board alone;
 * `--only core` issue 16's figures and the 10,000-queue store (the full run without issue 31's and 36's);
 * `bulk [--rounds N]`, `cluster`, `streams` issue 36's million-job retry, purge and move (N rounds, default 5), 3-master
 * cluster (on BASE+10..12) and 1,000 event streams alone.
 * `--queues N` sizes the many-queues store (100000: issue 36); `--keep-store DIR` keeps it in DIR between runs.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { bullpenEntry } from './bullpen-runtime.js';
import { rssPeakWatcher, waitUntilIdle } from './cpu.js';
import { startServer, type ServerProcess } from './processes.js';
import { writeResults } from './results-file.js';
import type { BenchResults } from './readme-table.js';
import { startRedis } from './redis-server.js';
import {
  cloneFinishedJobs,
  prefix,
  seedLiveJobs,
  seedManyQueues,
  seedTemplates,
  type BenchConnection,
} from './seed.js';
import { jobPageScenario, jobReadScenario, readJobId, readQueue } from './scenarios/job-reads.js';
import { manyQueuesScenario, seedManyQueuesStore } from './scenarios/many-queues.js';
import { manyQueuesScale, reuseOrSeed } from './scenarios/kept-store.js';
import { purgeScenario, seedPurgeQueues } from './scenarios/purge.js';
import { bulkScenario } from './scenarios/bulk.js';
import { clusterScenario } from './scenarios/cluster.js';
import { eventStreamsScenario } from './scenarios/event-streams.js';
import { queueListScenario } from './scenarios/queue-list.js';
import { keepEarlierRows, postgresScenario } from './scenarios/postgres.js';
import { measureSamplerCost } from './sampler-cost.js';
import { renderTable, report, rows } from './targets.js';
import { groupRowsOfLatest, mergeGroupIntoLatest } from './merge-rows.js';

const quick = process.argv.includes('--quick');
const scale = quick
  ? {
      queues: 200,
      pageJobs: 1_000,
      purgeJobs: 20_000,
      seconds: 2,
      listRounds: 5,
      listSpacingMs: 5_000,
      many: { queues: 2_000, noiseKeys: 200_000 },
      bulkJobs: 100_000,
    }
  : {
      queues: 1_000,
      pageJobs: 1_000,
      purgeJobs: 100_000,
      seconds: 5,
      listRounds: 5,
      listSpacingMs: 60_000,
      many: { queues: 10_000, noiseKeys: 2_000_000 },
      bulkJobs: 1_000_000,
    };
const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const only = option('--only');
// `--queues N` sizes the many-queues store (N queues among 200 other keys per queue): 100000 is issue 36's.
if (option('--queues')) scale.many = manyQueuesScale(Number(option('--queues')));
const onlyNames = ['core', 'many-queues', 'purge', 'postgres', 'bulk', 'cluster', 'streams'];
if (only !== undefined && !onlyNames.includes(only))
  throw new Error(`--only takes ${onlyNames.join(', ')}, not ${only}`);
const portBase = Number(option('--ports') ?? 6410);
/** The host's 1-minute load average when the run started: a scenario's group row says it (and the one at its end). */
const loadAtStart = loadavg()[0]!;
const ports = { redis: portBase, bullpen: portBase + 1, bullBoard: portBase + 2, bare: portBase + 3 };
const postgresPorts = { bullpen: portBase + 4, bullBoard: portBase + 5 };
/** Purge rounds (re-seeded in between): the figures are medians, one round moving by ±20% on a shared machine. */
const purgeRounds = Number(option('--rounds') ?? 3);
// The bulk rows are judged on five rounds: one run's rounds spread ±15–30 % on this host, three cannot tell 5 %.
const bulkRounds = Number(option('--rounds') ?? 5);
const connectionId = 'bench';

async function seed(redis: Redis, connection: { host: string; port: number }): Promise<void> {
  console.log(`seeding (${quick ? 'quick' : 'full'} scale)…`);
  await seedTemplates(connection);
  await seedManyQueues(connection, redis, scale.queues);
  await redis.rpush(
    `${prefix}:${readQueue}:${readJobId}:logs`,
    ...Array.from({ length: 20 }, (_, i) => `step ${i} done`),
  );
  await seedLiveJobs(connection, 'pages');
  await cloneFinishedJobs(redis, 'pages', 'completed', scale.pageJobs, 1);
  await seedPurgeQueues(redis, connection, scale.purgeJobs);
}

const runPurge = (bullpen: ServerProcess, redis: Redis, connection: BenchConnection) =>
  purgeScenario(bullpen, connectionId, ports.redis, {
    rounds: purgeRounds,
    reseed: () => seedPurgeQueues(redis, connection, scale.purgeJobs),
  });

function bullpenEnv(redisUrl: string, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(ports.bullpen),
    HOST: '127.0.0.1',
    SERVICE_EMBEDDED_DIR: dataDir,
    SERVICE_AUTHLESS: 'true',
    SERVICE_ENV_CONNECTIONS: 'true',
    SERVICE_REDIS_URL_BENCH: redisUrl,
    SERVICE_REDIS_URL_BENCH_PREFIX: prefix,
    // As users run it: default logging, rate limits at their defaults raised for load.
    RATE_LIMIT_MAX: '1000000',
  };
}

async function main(): Promise<void> {
  const redisProcess = await startRedis(ports.redis, option('--keep-store'));
  const redis = new Redis({ port: ports.redis, host: '127.0.0.1' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-bullpen-'));
  const servers: ServerProcess[] = [];
  const entry = await bullpenEntry();
  const startBullpen = async (extraEnv: Record<string, string> = {}) => {
    const server = await startServer(
      entry.script,
      [],
      { ...entry.env, ...bullpenEnv(redisProcess.url, dataDir), ...extraEnv },
      ports.bullpen,
      entry.nodeFlags,
    );
    servers.push(server);
    return server;
  };
  try {
    if (only === 'purge') await purgeAlone(redis, startBullpen);
    else if (only === 'postgres') await postgresScenario({ entry, quick, ports: postgresPorts });
    else if (only === 'bulk') await bulkAlone(redis, startBullpen);
    else if (only === 'cluster') await clusterAlone(redis, redisProcess.url, startBullpen);
    else if (only === 'streams') await streamsAlone(redis, startBullpen);
    else {
      if (only !== 'many-queues') await everyQueueScenario(redis, entry.runtime, startBullpen, servers);
      if (only === undefined) await postgresScenario({ entry, quick, ports: postgresPorts });
      if (only === undefined) await bulkAlone(redis, startBullpen);
      if (only === undefined) await clusterAlone(redis, redisProcess.url, startBullpen);
      if (only === undefined) await streamsAlone(redis, startBullpen);
      await reuseOrSeed(redis, scale.many, option('--keep-store'), () => seedManyQueuesStore(redis, scale.many));
      await rm(dataDir, { recursive: true, force: true });
      await mkdir(dataDir);
      await manyQueuesScenario(startBullpen, connectionId, scale.many, redis);
    }
  } finally {
    await Promise.allSettled(servers.map((server) => server.stop()));
    redis.disconnect();
    await redisProcess.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  const group = scenarioGroup();
  if (only === 'postgres') await keepEarlierRows();
  if (only === 'core') await keepSkippedRows();
  if (group && !quick) await mergeGroupIntoLatest(group, loadAtStart);
  if (only === undefined || only === 'postgres' || only === 'core' || (group && !quick))
    await writeResults(quick ? 'quick' : 'full');
  else console.log(`\n${renderTable()}`);
}

/** Scenarios run alone whose rows join the one table as a group (the 10,000-queue store alone does not: core has it). */
function scenarioGroup(): string | undefined {
  if (only === 'bulk' || only === 'cluster' || only === 'streams') return only;
  if (only === 'many-queues' && scale.many.queues !== 10_000) return `many-queues --queues ${scale.many.queues}`;
  return undefined;
}

/** `--only core` (issue 16's figures and the 10,000-queue store): the rows of the scenarios it skips stay from the last file. */
async function keepSkippedRows(): Promise<void> {
  const file = path.join(import.meta.dirname, 'results', 'latest.json');
  const earlier = JSON.parse(await readFile(file, 'utf8')) as BenchResults;
  const produced = new Set(rows.map((row) => row.target));
  const kept = earlier.rows.filter((row) => row.target !== '—' && !produced.has(row.target) && !row.group);
  const groups = await groupRowsOfLatest();
  if (kept.length + groups.length === 0) return;
  const from = `from the ${earlier.scale} run of ${earlier.date.slice(0, 10)}`;
  rows.push(
    { target: '—', figure: 'rows below (scenarios --only core skips)', value: from, goal: '' },
    ...kept,
    ...groups,
  );
}

/** Every figure but the 10,000-queue ones: 1,000 queues, Bullpen beside bull-board and the bare floor. */
async function everyQueueScenario(
  redis: Redis,
  runtime: string,
  startBullpen: () => Promise<ServerProcess>,
  servers: ServerProcess[],
): Promise<void> {
  await seed(redis, { host: '127.0.0.1', port: ports.redis });
  report(
    '—',
    'scale',
    `${quick ? 'quick' : 'full'}: ${scale.queues} queues, ${await redis.dbsize()} keys; Bullpen runs ${runtime}`,
  );
  const bullpen = await startBullpen();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssStart = await bullpen.rssMb();
  const peak = rssPeakWatcher(bullpen.pid);
  const serverArgs = (port: number) => [String(ports.redis), String(port), String(scale.queues)];
  const bullBoard = await startServer(
    'test/bench/servers/bull-board.ts',
    serverArgs(ports.bullBoard),
    {},
    ports.bullBoard,
  );
  servers.push(bullBoard);
  const bare = await startServer('test/bench/servers/bare.ts', serverArgs(ports.bare), {}, ports.bare);
  servers.push(bare);
  const subjects = { bullpen, bullBoard, bare };
  const settledMs = await waitUntilIdle([bullpen.pid, bullBoard.pid, bare.pid]);
  report('—', 'subjects idle before the first measurement (each ≤ 5 % CPU over 0.5 s)', `after ${settledMs} ms`);
  // Job reads are measured with no discovery scan under way (a list round may just have started one).
  const quietDiscovery = async () => {
    while (
      ((await (await fetch(`${bullpen.url}/api/c/${connectionId}/discovery`)).json()) as { scanning: boolean }).scanning
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const between = [
    async () => {
      await quietDiscovery();
      return jobReadScenario(subjects, redis, connectionId, scale.seconds);
    },
    () => jobPageScenario(subjects, connectionId, 'pages', scale.seconds),
    () => runPurge(bullpen, redis, { host: '127.0.0.1', port: ports.redis }),
  ];
  await queueListScenario(bullpen, connectionId, {
    rounds: scale.listRounds,
    spacingMs: scale.listSpacingMs,
    seconds: scale.seconds,
    between: async () => void (await between.shift()?.()),
    floorUrl: `${bare.url}/queues/${readQueue}/jobs/${readJobId}`,
  });
  for (const rest of between) await rest();
  report(
    '6 memory',
    `RSS after start / peak through the run (${scale.queues} queues)`,
    `${rssStart} / ${peak.stop()} MiB`,
    '≤ 110 / ≤ 250 MiB',
    rssStart <= 110 && peak.peakMb() <= 250,
  );
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  // With every service stopped, the store's command counts are the sampler's alone.
  const sampler = await measureSamplerCost({ host: '127.0.0.1', port: ports.redis }, prefix);
  const callBudget = Math.ceil(sampler.queues / 200);
  report(
    '20 history',
    `one history sample of ${sampler.queues} queues: collect / write, script calls`,
    `${sampler.collectMs} / ${sampler.writeMs} ms, ${sampler.scriptCalls} calls`,
    `≤ ${callBudget} script calls (1 per 200 queues)`,
    sampler.scriptCalls <= callBudget,
  );
}

/** `--only purge`: the purge queues alone, then the purge figures. */
async function purgeAlone(redis: Redis, startBullpen: () => Promise<ServerProcess>): Promise<void> {
  const connection = { host: '127.0.0.1', port: ports.redis };
  console.log(`seeding the purge queues (${quick ? 'quick' : 'full'} scale)…`);
  await seedTemplates(connection);
  await seedPurgeQueues(redis, connection, scale.purgeJobs);
  await runPurge(await startBullpen(), redis, connection);
}

/** Issue 36 item 3 on a store of its own: a million failed jobs retried, then purged, as tasks beside their floors. */
async function bulkAlone(redis: Redis, startBullpen: () => Promise<ServerProcess>): Promise<void> {
  const connection = { host: '127.0.0.1', port: ports.redis };
  await redis.flushall();
  console.log(`bulk: ${scale.bulkJobs} failed jobs, ${bulkRounds} rounds…`);
  await seedTemplates(connection);
  const bullpen = await startBullpen();
  await bulkScenario(bullpen, connectionId, connection, { jobs: scale.bulkJobs, rounds: bulkRounds });
  await bullpen.stop();
}

/** Issue 36 item 2: the same queues on the standalone store and on a 3-master cluster on the next ports but nine. */
async function clusterAlone(
  redis: Redis,
  url: string,
  startBullpen: (env: Record<string, string>) => Promise<ServerProcess>,
): Promise<void> {
  await redis.flushall();
  const clusterPorts = [portBase + 10, portBase + 11, portBase + 12];
  await clusterScenario(startBullpen, { url, redis }, clusterPorts, scale.many.queues);
}

/** Issue 36 item 4: 1,000 live event streams (200 in a quick run) on one Bullpen process. */
async function streamsAlone(redis: Redis, startBullpen: () => Promise<ServerProcess>): Promise<void> {
  await redis.flushall();
  const bullpen = await startBullpen();
  const streams = { queues: 10, streams: quick ? 200 : 1000, events: quick ? 100 : 200 };
  await eventStreamsScenario(bullpen, connectionId, redis, { host: '127.0.0.1', port: ports.redis }, streams);
  await bullpen.stop();
}

process.on(
  'exit',
  (code) => code === 0 && rows.length === 0 && console.error('bench: exited before measuring anything'),
);
await main();
