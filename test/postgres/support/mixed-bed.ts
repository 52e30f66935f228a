import { Queue } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { postgresQueueFixture, type PostgresQueue, type PostgresQueueFixture } from '../../helpers/postgres-queues.js';
import { storeFixture, type StoreFixture } from '../../helpers/stores.js';

export interface MixedBed {
  readonly app: TestApp;
  /** Connection `main`: a Redis store under a prefix of its own. */
  readonly redis: StoreFixture;
  /** Connection `pg`: a fresh database holding BullMQ's PostgreSQL schema. */
  readonly pg: PostgresQueueFixture;
  redisQueue(name: string): Queue;
  pgQueue(name: string): PostgresQueue;
  /** POST …/c/<connection>/queues/<queue>/jobs/move */
  move(connection: string, queue: string, body: unknown): ReturnType<typeof request>;
}

/** One service per test file with a Redis connection (`main`) and a PostgreSQL one (`pg`): moves between the kinds. */
export function mixedBed(): MixedBed {
  const redis = storeFixture();
  let pg: PostgresQueueFixture | undefined;
  let app: TestApp | undefined;
  const closers: Queue[] = [];
  beforeAll(async () => {
    pg = await postgresQueueFixture({ name: 'pg' });
    app = await bootApp({ env: { ...redis.env, ...pg.env, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(closers.map((queue) => queue.close()));
    await app?.close();
    await pg?.cleanup();
    await redis.cleanup();
  });
  return {
    get app() {
      return app!;
    },
    redis,
    get pg() {
      return pg!;
    },
    redisQueue(name) {
      const queue = new Queue(name, redis.bullmq);
      closers.push(queue);
      return queue;
    },
    pgQueue: (name) => pg!.queue(name),
    move: (connection, queue, body) =>
      request(`${app!.api}/c/${connection}/queues/${encodeURIComponent(queue)}/jobs/move`, { method: 'POST', body }),
  };
}
