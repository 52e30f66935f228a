import { afterAll, beforeAll } from 'vitest';
import { request } from '../../helpers/app.js';
import { testEncryptionKey } from '../../helpers/connections.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { postgresQueueFixture, type PostgresQueueFixture } from '../../helpers/postgres-queues.js';
import { storeFixture, type StoreFixture } from '../../helpers/stores.js';
import { startBundledService, type BundledService } from '../../tasks/support/service-bundle.js';

export interface MoveStage {
  /** Connection `main`: the shared Redis under a prefix of this file's own. */
  readonly redis: StoreFixture;
  /** Connection `pg`: a database of its own holding BullMQ's PostgreSQL schema. */
  readonly pg: PostgresQueueFixture;
  /** A service process (authless, both connections, tasks in a database of its own, a 5 s lease). */
  startService(): Promise<BundledService>;
  /** The task as the service answers it (under its source connection). */
  task(service: BundledService, connection: string, taskId: string): Promise<{ state: string; result: any }>;
}

/** Service processes over a Redis connection and a PostgreSQL one, for moves killed with SIGKILL and resumed. */
export function moveStage(): MoveStage {
  const redis = storeFixture();
  let pg: PostgresQueueFixture | undefined;
  let tasks: TestDatabase | undefined;
  const services: BundledService[] = [];
  beforeAll(async () => {
    [pg, tasks] = await Promise.all([postgresQueueFixture({ name: 'pg' }), createTestDatabase()]);
  }, 60_000);
  afterAll(async () => {
    for (const service of services.filter((started) => started.child.exitCode === null && !started.child.signalCode)) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await pg?.cleanup();
    await tasks?.drop();
    await redis.cleanup();
  });
  return {
    redis,
    get pg() {
      return pg!;
    },
    async startService() {
      const service = await startBundledService({
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: tasks!.url,
        SERVICE_ENCRYPTION_KEY: testEncryptionKey,
        DISABLE_RATE_LIMIT: 'true',
        SERVICE_TASK_LEASE_SECONDS: '5',
        ...redis.env,
        ...pg!.env,
      });
      services.push(service);
      return service;
    },
    async task(service, connection, taskId) {
      const response = await request(`${service.api}/c/${connection}/tasks/${taskId}`);
      if (response.status !== 200)
        throw new Error(`task ${taskId}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    },
  };
}
