import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEncryptionKey } from '../helpers/connections.js';
import { waitFor } from '../helpers/jobs.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/process.js';
import { readApiDescription } from './support/openapi-operations.js';
import { startOwnRedis, type OwnRedis } from './support/own-redis.js';
import { findSecret } from './support/secrets.js';
import { seedStore, type SeededStore } from './support/seed-store.js';

const password = 'load-Pa55word';
/**
 * The issue asks for 30 s of load; CI runs 3 rounds of 5 s so the file stays
 * near 20 s on two shared cores. RELIABILITY_LOAD_SECONDS=10 gives 3 × 10 s.
 */
const roundSeconds = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 5);
const rounds = Number(process.env.RELIABILITY_LOAD_ROUNDS ?? 3);
/** One of the ports reserved for this suite: a fixed one, known before the child starts. */
const servicePort = 6425;
const origin = `http://127.0.0.1:${servicePort}`;

/** The list routes, by template; those the OpenAPI document does not have yet (queues, issue 4) are skipped. */
const listRoutes = [
  '/connections',
  '/c/{connectionId}/queues',
  '/c/{connectionId}/queues/{queueName}/jobs?status=completed',
  '/c/{connectionId}/scheduled-jobs',
  '/c/{connectionId}/workers',
  '/c/{connectionId}/store-keys/search',
];

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

describe('16-way load on the list routes of a service child process', () => {
  let redis: OwnRedis;
  let seeded: SeededStore;
  let dataDir: string;
  let service: ServiceProcess;
  const measured: Array<{ requests: number; non2xx: number; errors: number; timeouts: number; memory: Memory }> = [];

  /** Asks the child for its memory after a full GC (see support/memory-probe.ts) and reads the line it prints. */
  async function readMemory(): Promise<Memory> {
    const probeLines = () => service.output().match(/\{"memoryProbe":\{[^}]*\}\}/g) ?? [];
    const seen = probeLines().length;
    process.kill(service.child.pid!, 'SIGUSR2');
    const line = await waitFor(() => probeLines()[seen], 5000, 'the memory probe line');
    return (JSON.parse(line!) as { memoryProbe: Memory }).memoryProbe;
  }

  beforeAll(async () => {
    redis = await startOwnRedis(6424, password);
    seeded = await seedStore(redis.connection);
    dataDir = await mkdtemp(path.join(tmpdir(), 'bullpen-load-'));
    service = startServiceProcess(
      {
        PORT: String(servicePort),
        HOST: '127.0.0.1',
        // info: a line per request, so the secret scan below reads real log output.
        LOG_LEVEL: 'debug',
        NODE_ENV: 'test',
        SERVICE_EMBEDDED_DIR: dataDir,
        SERVICE_ENCRYPTION_KEY: testEncryptionKey,
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MAIN: redis.url,
        DISABLE_RATE_LIMIT: 'true',
      },
      { nodeArgs: ['--expose-gc', '--import', './test/reliability/support/memory-probe.ts'] },
    );
    await waitFor(
      async () => (await fetch(`${origin}/api/health`).catch(() => null))?.ok,
      20_000,
      'the service to listen',
    );
  });

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await redis?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`answers every request of ${rounds} rounds of ${roundSeconds} s without an error, live heap flat and RSS bounded across rounds`, {
    timeout: 60_000 + rounds * roundSeconds * 1000,
  }, async () => {
    const description = await readApiDescription(`${origin}/api`);
    const present = listRoutes.filter((route) =>
      description.operations.some((operation) => operation.method === 'GET' && operation.path === route.split('?')[0]),
    );
    const values: Record<string, string> = { connectionId: 'main', queueName: seeded.queueName };
    const paths = present.map(
      (route) => `/api${route.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''))}`,
    );
    const idle = await readMemory();
    for (let round = 0; round < rounds; round++) {
      const result = await autocannon({
        url: origin,
        connections: 16,
        duration: roundSeconds,
        requests: paths.map((requestPath) => ({ method: 'GET', path: requestPath })),
      });
      measured.push({
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        memory: await readMemory(),
      });
    }
    // The figures, for the report and the CI log.
    console.log(JSON.stringify({ routes: paths, idle, rounds: measured }));
    for (const figures of measured) {
      expect(figures.requests).toBeGreaterThan(100);
      expect({ non2xx: figures.non2xx, errors: figures.errors, timeouts: figures.timeouts }).toEqual({
        non2xx: 0,
        errors: 0,
        timeouts: 0,
      });
    }
    const memory = measured.map((figures) => figures.memory);
    const [first, last] = [memory[0]!, memory.at(-1)!];
    const megabytes = (bytes: number) => bytes / 1024 / 1024;
    // The leak detector: live heap after a full GC, which does not depend on
    // when V8 last collected. A leak of 1 KB per request (thousands of
    // requests a round) would add several MB a round; the bound leaves room
    // for caches that fill once (queue handles, compiled code).
    expect(megabytes(last.heapUsed - first.heapUsed)).toBeLessThan(8);
    // RSS also counts pages V8 and malloc keep once a busier round needed
    // them: measured here it rises in steps (326 → 350 → 382 MB over 7
    // rounds, heap flat at 53-55 MB), by up to ~90 MB over 3 rounds on a
    // loaded machine. So RSS gets a loose ratio (no unbounded growth), the
    // heap the tight bound.
    expect(last.rss / first.rss).toBeLessThan(1.4);
  });

  it('never shows the store password in the service output', () => {
    const lines = service.output().split('\n');
    // The scan must see real log lines: one per request at LOG_LEVEL=debug (successful requests log at debug), naming the connection's routes (by template).
    const logLines = lines.filter((line) => line.startsWith('{"level":'));
    expect(logLines.length).toBeGreaterThan(100);
    expect(logLines.some((line) => line.includes('/api/c/{connectionId}/'))).toBe(true);
    expect(findSecret(password, [], lines)).toEqual([]);
  });
});
