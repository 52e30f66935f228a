import { Queue, Worker, createPostgresBackend } from 'bullmq';
import pg from 'pg';

/** The PostgreSQL bench's store: its own database, dropped after the run. */
export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

const adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
const templateQueue = 'bench-template';
/** Jobs of each of the 200 queues, by state: 1,000 in all. */
export const perQueueMix = { completed: 800, failed: 100, waiting: 50, delayed: 50 } as const;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `bench_pg_${process.pid}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * BullMQ's schema by its own migrations (`migrate: true`), then one job per
 * state made by BullMQ itself: a real Worker completes one (with a log line)
 * and fails one (stack trace), a producer adds a waiting and a delayed one.
 * Those rows are the templates the bulk is cloned from.
 */
async function seedTemplates(url: string): Promise<void> {
  const connection = { connectionString: url, migrate: true };
  const queue = new Queue(templateQueue, { connection }, createPostgresBackend);
  const data = (fail: boolean) => ({
    fail,
    customer: { id: 'customer-1', tier: 'gold' },
    lines: [{ sku: 'A1', qty: 2 }],
  });
  await queue.add('invoice', data(false));
  await queue.add('invoice', data(true));
  let finished = 0;
  const worker = new Worker(
    templateQueue,
    async (job) => {
      await job.log(`charging ${job.data.customer.id}`);
      if (job.data.fail) throw new Error(`card declined for ${job.data.customer.id}`);
      return { charged: true };
    },
    { connection },
    createPostgresBackend,
  );
  worker.on('completed', () => finished++);
  worker.on('failed', () => finished++);
  while (finished < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  await worker.close();
  await queue.add('invoice', data(false));
  await queue.add('invoice', data(false), { delay: 3_600_000 });
  await queue.close();
}

/**
 * `count` clones of the template job in `state` into each named queue, in
 * one statement: ids from BullMQ's own allocator (`next_job_id`, so later
 * adds do not collide), order from its `job_seq`, times spread over the past.
 */
function cloneSql(state: string): string {
  return `INSERT INTO job (queue, id, seq, name, state, data, opts, priority, delay_ms, max_attempts, attempts_made,
            attempts_started, progress, return_value, failed_reason, stacktrace, processed_by,
            added_at_ms, process_at_ms, processed_at_ms, finished_at_ms)
     SELECT q.name, next_job_id(q.name), nextval('job_seq'), t.name, t.state,
            jsonb_set(t.data, '{customer,id}', to_jsonb('customer-' || g)), t.opts, t.priority, t.delay_ms, t.max_attempts,
            t.attempts_made, t.attempts_started, t.progress, t.return_value, t.failed_reason, t.stacktrace, t.processed_by,
            $3::bigint - ($2 - g) * 1000,
            t.process_at_ms - t.added_at_ms + $3::bigint - ($2 - g) * 1000,
            t.processed_at_ms - t.added_at_ms + $3::bigint - ($2 - g) * 1000,
            t.finished_at_ms - t.added_at_ms + $3::bigint - ($2 - g) * 1000
       FROM unnest($1::text[]) WITH ORDINALITY AS q(name, n) CROSS JOIN generate_series(1, $2::int) AS g
       JOIN LATERAL (SELECT * FROM job WHERE queue = '${templateQueue}' AND state = '${state}' LIMIT 1) t ON true
      ORDER BY q.n, g`;
}

/**
 * The bench's store: `names` queues of `perQueueMix` jobs and `bigQueue`
 * with `bigCount` completed jobs, their meta as BullMQ's producer writes it,
 * `logLines` log lines on one job; the template queue obliterated after.
 */
export async function seedPostgresBench(
  url: string,
  options: { names: string[]; bigQueue: string; bigCount: number; logJob: { queue: string; id: string } },
): Promise<void> {
  await seedTemplates(url);
  const client = new pg.Client({ connectionString: url, options: '-c search_path=bullmq' });
  await client.connect();
  try {
    const now = Date.now();
    for (const [state, count] of Object.entries(perQueueMix))
      await client.query(cloneSql(state), [options.names, count, now]);
    await client.query(cloneSql('completed'), [[options.bigQueue], options.bigCount, now]);
    await client.query(
      `INSERT INTO meta (queue, field, value)
       SELECT q.name, m.field, m.value FROM unnest($1::text[]) AS q(name) CROSS JOIN meta m
        WHERE m.queue = '${templateQueue}' AND m.field IN ('version', 'opts.maxLenEvents')`,
      [[...options.names, options.bigQueue]],
    );
    await client.query(
      `INSERT INTO job_log (queue, job_id, idx, row) SELECT $1, $2, i - 1, 'step ' || i || ' done' FROM generate_series(1, 20) AS i`,
      [options.logJob.queue, options.logJob.id],
    );
    await client.query('DELETE FROM job_log WHERE queue = $1', [templateQueue]);
    await client.query('DELETE FROM job WHERE queue = $1', [templateQueue]);
    await client.query('DELETE FROM meta WHERE queue = $1', [templateQueue]);
    // As autovacuum would leave a table that has settled: visibility map set, statistics current.
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
