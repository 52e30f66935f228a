import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { testEncryptionKey } from '../../helpers/connections.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { serviceEnvironment, serviceNodeFlags } from '../../../server/build/node-flags.mjs';
import { compiledServiceEntry } from '../../helpers/compiled-service.js';
import { startServiceProcess, type ServiceProcess } from '../../helpers/process.js';

/** A service process as `npm start` and the image run it (compiled, with their Node flags and environment). */
export interface StageService extends ServiceProcess {
  /** The API's base URL (`http://127.0.0.1:<port>/api`). */
  api: string;
}

export interface LifecycleStage {
  readonly redis: Redis;
  /** The connection `main`'s prefix: this file's own, on the shared Redis. */
  readonly prefix: string;
  readonly databaseUrl: string;
  /** A service process (authless, connection `main`) on the stage's database, once it listens; `env` adds or overrides variables. */
  startService(env?: Record<string, string>): Promise<StageService>;
}

/**
 * What a lifecycle scenario runs on: the shared Redis under a prefix of its own, a PostgreSQL
 * database of its own (shared by the service processes it starts one after another, as replicas
 * would), and compiled service processes, each SIGKILLed in afterAll if the scenario left it running.
 */
export function lifecycleStage(): LifecycleStage {
  const prefix = `chaos-${randomBytes(4).toString('hex')}`;
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  let database: TestDatabase;
  const services: StageService[] = [];
  beforeAll(async () => {
    await redis.connect();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const service of services)
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    await Promise.all(services.map((service) => service.exited));
    const keys = await redis.keys(`${prefix}:*`);
    for (let at = 0; at < keys.length; at += 1000) await redis.del(...keys.slice(at, at + 1000));
    redis.disconnect();
    await database?.drop();
  });
  return {
    redis,
    prefix,
    get databaseUrl() {
      return database.url;
    },
    async startService(env = {}) {
      const service = await startStageService({
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        SERVICE_ENCRYPTION_KEY: testEncryptionKey,
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MAIN: 'redis://127.0.0.1:6379',
        SERVICE_REDIS_URL_MAIN_PREFIX: prefix,
        DISABLE_RATE_LIMIT: 'true',
        ...env,
      });
      services.push(service);
      return service;
    },
  };
}

async function startStageService(env: Record<string, string>): Promise<StageService> {
  const service = startServiceProcess(
    { ...serviceEnvironment, ...env },
    { entry: await compiledServiceEntry(), nodeArgs: serviceNodeFlags },
  );
  const url = (await service.waitForOutput(/"url":"http:\/\/127\.0\.0\.1:\d+"/, 60_000)).slice(7, -1);
  return { ...service, api: `${url}/api` };
}

/** The epoch ms of a service's first log line whose message is `message`, or undefined. */
export function logTime(service: StageService, message: string): number | undefined {
  const line = service
    .output()
    .split('\n')
    .find((entry) => entry.includes(`"msg":"${message}"`));
  return line ? Date.parse((JSON.parse(line) as { time: string }).time) : undefined;
}
