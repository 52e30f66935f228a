import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { postgresQueueFixture, type PostgresQueueFixture } from '../helpers/postgres-queues.js';
import { failJobs } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

/** `bullpen move … --to-conn pg-main`: a Redis queue's failed jobs moved into a saved PostgreSQL connection by name. */
/** `bullpen move` from the Redis queue `emails` to the one of the same name on the PostgreSQL connection. */
const moveToPostgres = ['move', 'emails', '--conn', 'main', '--to', 'emails', '--to-conn', 'pg-main'];

describe('bullpen move --to-conn (a Redis queue into PostgreSQL)', () => {
  const redis = storeFixture();
  let pg: PostgresQueueFixture;
  let app: TestApp;
  let source: Queue;
  let failed: string[];
  const bullpen = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: app.url } });
  beforeAll(async () => {
    pg = await postgresQueueFixture();
    app = await bootApp({ persistence: 'server', env: { SERVICE_AUTHLESS: 'true' } });
    for (const body of [
      { name: 'main', url: 'redis://127.0.0.1:6379/0', prefix: redis.prefix },
      { name: 'pg-main', url: pg.database.url },
    ])
      expect((await request(`${app.api}/connections`, { method: 'POST', body })).status).toBe(201);
    source = new Queue('emails', redis.bullmq);
    failed = await failJobs(redis.bullmq, source, [{ to: 'a@example.com' }, { to: 'b@example.com' }]);
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await app?.close();
    await pg?.cleanup();
    await redis.cleanup();
  });

  it('counts with --dry-run, then moves the failed jobs into the PostgreSQL queue, keeping data and attempts', async () => {
    const dry = await bullpen([...moveToPostgres, '--status', 'failed', '--dry-run']);
    expect(dry.stdout).toBe('would move 2 job(s) from emails to emails (pg-main)\n');
    expect(await source.getFailedCount()).toBe(2);

    const run = await bullpen([...moveToPostgres, '--status', 'failed']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('moved 2 job(s) from emails to emails (pg-main)\n');
    expect(await source.getFailedCount()).toBe(0);
    const target = pg.queue('emails');
    const moved = await target.getWaiting();
    expect(moved.map((job) => job.id).sort()).toEqual(failed.map((id) => `emails-${id}`).sort());
    expect(moved.map((job) => [job.data, job.attemptsMade])).toContainEqual([{ to: 'a@example.com' }, 1]);
  });

  it('answers a job that is not there NOT_FOUND (--json: the API result)', async () => {
    const run = await bullpen([...moveToPostgres, '--json', 'gone']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      succeeded: 0,
      failed: 1,
      results: [{ jobId: 'gone', ok: false, code: 'NOT_FOUND' }],
    });
  });
});
