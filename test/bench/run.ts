/**
 * npm run bench [-- --quick] [-- --only many-queues|purge] [-- --ports BASE]:
 * seeds its own workload into a redis-server it starts on :6410 (or BASE,
 * the servers on the next ports), runs Bullpen, bull-board and a bare
 * express floor as separate processes, and prints ONE table of every figure
 * of issue 16 next to its target (✓/✗); writes test/bench/results/latest.json.
 * `--only many-queues` runs the 10,000-queue store alone (index, list
 * filters and totals, metrics, Prometheus) and writes no results file;
 * `--only purge [--rounds N]` the purge figures alone (N rounds, default 3);
 * `--only postgres` the PostgreSQL-backed store against bull-board alone.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { bullpenEntry } from './bullpen-runtime.js';
import { rssPeakWatcher, waitUntilIdle } from './cpu.js';
import { startServer, type ServerProcess } from './processes.js';
import { writeResults } from './results-file.js';
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
import { purgeScenario, seedPurgeQueues } from './scenarios/purge.js';
import { queueListScenario } from './scenarios/queue-list.js';
import { keepEarlierRows, postgresScenario } from './scenarios/postgres.js';
import { measureSamplerCost } from './sampler-cost.js';
import { renderTable, report, rows } from './targets.js';

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
    }
  : {
      queues: 1_000,
      pageJobs: 1_000,
      purgeJobs: 100_000,
      seconds: 5,
      listRounds: 5,
      listSpacingMs: 60_000,
      many: { queues: 10_000, noiseKeys: 2_000_000 },
    };
const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const only = option('--only');
if (only !== undefined && !['many-queues', 'purge', 'postgres'].includes(only))
  throw new Error(`--only takes many-queues, purge or postgres, not ${only}`);
const portBase = Number(option('--ports') ?? 6410);
const ports = { redis: portBase, bullpen: portBase + 1, bullBoard: portBase + 2, bare: portBase + 3 };
const postgresPorts = { bullpen: portBase + 4, bullBoard: portBase + 5 };
/** Purge rounds (re-seeded in between): the figures are medians, one round moving by ±20% on a shared machine. */
const purgeRounds = Number(option('--rounds') ?? 3);
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
  const redisProcess = await startRedis(ports.redis);
  const redis = new Redis({ port: ports.redis, host: '127.0.0.1' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-bullpen-'));
  const servers: ServerProcess[] = [];
  const entry = await bullpenEntry();
  const startBullpen = async () => {
    const server = await startServer(
      entry.script,
      [],
      { ...entry.env, ...bullpenEnv(redisProcess.url, dataDir) },
      ports.bullpen,
      entry.nodeFlags,
    );
    servers.push(server);
    return server;
  };
  try {
    if (only === 'purge') await purgeAlone(redis, startBullpen);
    else if (only === 'postgres') await postgresScenario({ entry, quick, ports: postgresPorts });
    else {
      if (only !== 'many-queues') await everyQueueScenario(redis, entry.runtime, startBullpen, servers);
      if (only === undefined) await postgresScenario({ entry, quick, ports: postgresPorts });
      await redis.flushall();
      await seedManyQueuesStore(redis, scale.many);
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
  if (only === 'postgres') await keepEarlierRows();
  if (only === undefined || only === 'postgres') await writeResults(quick ? 'quick' : 'full');
  else console.log(`\n${renderTable()}`);
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

process.on(
  'exit',
  (code) => code === 0 && rows.length === 0 && console.error('bench: exited before measuring anything'),
);
await main();
