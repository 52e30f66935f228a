import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { request } from '../../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { spawnRedis, type SpawnedRedis } from '../../helpers/spawn-redis.js';
import { testEncryptionKey } from '../../helpers/connections.js';
import { startBundledService, type BundledService } from './service-bundle.js';

export const stagePrefix = 'acceptance';

export interface TaskStage {
  readonly redis: Redis;
  readonly connection: { host: string; port: number };
  readonly databaseUrl: string;
  /** A service process (authless, connection `main` on the stage's redis-server, `other` on its db 1) on the stage's database. */
  startService(): Promise<BundledService>;
  /** The task as the given service answers it. */
  task(service: BundledService, taskId: string): Promise<TaskBody>;
}

export interface TaskBody {
  state: string;
  processed: number;
  total: number | null;
  result: Record<string, unknown> | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * What an acceptance file runs on: a redis-server of its own (a free loopback port, so 200k jobs
 * never land in the shared Redis), a PostgreSQL database of its own, and service processes on
 * both, each stopped in afterAll if the test left it running.
 */
export function taskStage(port: number, leaseSeconds?: number): TaskStage {
  let server: SpawnedRedis;
  let database: TestDatabase;
  let redis: Redis;
  const services: BundledService[] = [];
  beforeAll(async () => {
    server = await spawnRedis(port);
    redis = new Redis({ host: '127.0.0.1', port });
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(
      services
        .filter((service) => service.child.exitCode === null && service.child.signalCode === null)
        .map((service) => endService(service, 'SIGTERM')),
    );
    redis?.disconnect();
    await server?.stop();
    await database?.drop();
  });
  return {
    get redis() {
      return redis;
    },
    connection: { host: '127.0.0.1', port },
    get databaseUrl() {
      return database.url;
    },
    async startService() {
      const env = {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        SERVICE_ENCRYPTION_KEY: testEncryptionKey,
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MAIN: server.url,
        SERVICE_REDIS_URL_MAIN_PREFIX: stagePrefix,
        // Another store for moves across stores: its own client, on the same server.
        SERVICE_REDIS_URL_OTHER: `${server.url}/1`,
        SERVICE_REDIS_URL_OTHER_PREFIX: stagePrefix,
        DISABLE_RATE_LIMIT: 'true',
        ...(leaseSeconds === undefined ? {} : { SERVICE_TASK_LEASE_SECONDS: String(leaseSeconds) }),
      };
      const service = await startBundledService(env);
      services.push(service);
      return service;
    },
    async task(service, taskId) {
      const response = await request(`${service.api}/c/main/tasks/${taskId}`);
      if (response.status !== 200)
        throw new Error(`task ${taskId}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body as TaskBody;
    },
  };
}

/** Ends a service process with `signal` and waits until it is gone. */
export async function endService(service: BundledService, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  service.child.kill(signal);
  await service.exited;
}

/** The task ids a service process claimed, from its `task claimed` log lines: lease holder id, progress then, epoch ms. */
export function claimsOf(
  service: BundledService,
): Array<{ taskId: string; holder: string; processed: number; time: number }> {
  return service
    .output()
    .split('\n')
    .filter((line) => line.includes('"task claimed"'))
    .map((line) => JSON.parse(line) as { taskId: string; holder: string; processed: number; time: string })
    .map((claim) => ({ ...claim, time: Date.parse(claim.time) }));
}
