import {
  Queue,
  Worker,
  createPostgresBackend,
  runMigrations,
  type PostgresConnectionOptions,
  type PostgresQueueBackend,
} from 'bullmq';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from './postgres.js';
import type { JobMix } from './queues.js';

export type PostgresQueue = Queue<any, any, string, any, any, string, PostgresQueueBackend, PostgresConnectionOptions>;

/** BullMQ's PostgreSQL connection options for a test database (migrations already run by the fixture). */
export interface PostgresBullmq {
  connection: { connectionString: string; schema: string };
}

export interface PostgresQueueFixture {
  database: TestDatabase;
  schema: string;
  bullmq: PostgresBullmq;
  /** SERVICE_POSTGRES_URL_<NAME> for the service (authless, environment connections). */
  env: Record<string, string>;
  queue(name: string): PostgresQueue;
  seed(name: string, mix: JobMix): Promise<PostgresQueue>;
  cleanup(): Promise<void>;
}

/** Runs BullMQ's own migrations from the installed package on a schema of a database. */
export async function migrateBullmqSchema(url: string, schema = 'bullmq'): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await runMigrations(client, schema);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database per test file holding BullMQ's PostgreSQL schema, and
 * queues filled by real BullMQ Workers on `createPostgresBackend`.
 */
export async function postgresQueueFixture(
  options: { name?: string; schema?: string } = {},
): Promise<PostgresQueueFixture> {
  const database = await createTestDatabase();
  const schema = options.schema ?? 'bullmq';
  await migrateBullmqSchema(database.url, schema);
  const bullmq: PostgresBullmq = { connection: { connectionString: database.url, schema } };
  const name = (options.name ?? 'main').toUpperCase();
  const closers: Array<{ close(): Promise<unknown> }> = [];
  const queue = (queueName: string) => {
    const made = new Queue(queueName, bullmq, createPostgresBackend);
    closers.push(made);
    return made;
  };
  return {
    database,
    schema,
    bullmq,
    env: {
      SERVICE_AUTHLESS: 'true',
      SERVICE_ENV_CONNECTIONS: 'true',
      [`SERVICE_POSTGRES_URL_${name}`]: database.url,
      ...(options.schema ? { [`SERVICE_POSTGRES_URL_${name}_SCHEMA`]: schema } : {}),
    },
    queue,
    seed: (queueName, mix) => seedPostgresQueue(bullmq, queue(queueName), mix),
    async cleanup() {
      await Promise.allSettled(closers.map((closer) => closer.close()));
      await database.drop();
    },
  };
}

/** As seedQueue (helpers/queues.ts) on PostgreSQL: a real Worker completes and fails jobs (stack traces, a log line), then the rest are added. */
export async function seedPostgresQueue(
  bullmq: PostgresBullmq,
  queue: PostgresQueue,
  mix: JobMix,
): Promise<PostgresQueue> {
  const total = (mix.completed ?? 0) + (mix.failed ?? 0);
  await settlePostgresJobs(
    bullmq,
    queue,
    Array.from({ length: total }, (_, i) => ({ name: 'work', data: { fail: i >= (mix.completed ?? 0) } })),
  );
  const add = (count: number, opts: object, label: string) =>
    count > 0
      ? queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: `${label}-${i}`, data: {}, opts })))
      : Promise.resolve([]);
  await add(mix.waiting ?? 0, {}, 'waiting');
  await add(mix.delayed ?? 0, { delay: 3_600_000 }, 'delayed');
  await add(mix.prioritized ?? 0, { priority: 5 }, 'prioritized');
  return queue;
}

/** Adds the jobs and lets a real Worker run them: each fails (stack trace) when its data says `fail`, else completes; every one logs a line. */
export async function settlePostgresJobs(
  bullmq: PostgresBullmq,
  queue: PostgresQueue,
  jobs: Array<{ name: string; data: Record<string, unknown> }>,
): Promise<string[]> {
  if (jobs.length === 0) return [];
  let settled = 0;
  let worker: Worker<any, any, string, PostgresQueueBackend, any, PostgresConnectionOptions> | undefined;
  const done = new Promise<void>((resolve) => {
    const started = new Worker(
      queue.name,
      async (job) => {
        await job.log(`ran ${job.id}`);
        if (job.data.fail) throw new Error('seeded failure');
        return 'ok';
      },
      { ...bullmq, concurrency: 20 },
      createPostgresBackend,
    );
    const settle = () => ++settled === jobs.length && resolve();
    started.on('completed', settle);
    started.on('failed', settle);
    worker = started;
  });
  const added = await queue.addBulk(jobs);
  await done;
  await worker!.close();
  return added.map((job) => job.id!);
}
