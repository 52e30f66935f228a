import { FlowProducer, Worker, createPostgresBackend } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { movedJobId } from '../../routers/jobs/move-jobs.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import { seedPostgresQueue } from '../helpers/postgres-queues.js';
import { mixedBed } from './support/mixed-bed.js';

/** jobs.move between a Redis connection (`main`) and a PostgreSQL one (`pg`), both ways, and within PostgreSQL. */
const bed = mixedBed();
const journalRows = async () =>
  (
    await queryDatabase<{ n: number }>(
      bed.pg.database.url,
      `SELECT COUNT(*)::int AS n FROM bullmq.bullpen_move_journal WHERE target_queue = 'outbox'`,
    )
  )[0]!.n;

describe('moving jobs from Redis to PostgreSQL', () => {
  it('keeps name, data, options, creation time, attempts made and logs; a PostgreSQL Worker runs the copy', async () => {
    const source = bed.redisQueue('outbox');
    const job = await source.add(
      'invoice',
      { n: 7 },
      { attempts: 5, backoff: { type: 'fixed', delay: 10 }, keepLogs: 10, delay: 60_000, timestamp: 1_700_000_000_000 },
    );
    await job.log('first try');
    await job.log('second try');
    await bed.redis.redis.hset(`${bed.redis.prefix}:outbox:${job.id}`, 'atm', 2, 'ats', 2);
    const urgent = await source.add('urgent', { u: true }, { priority: 3 });
    // No read of the PostgreSQL connection creates Bullpen's journal: the first delivery does.
    expect(await queryDatabase(bed.pg.database.url, `SELECT to_regclass('bullmq.bullpen_move_journal') AS t`)).toEqual([
      { t: null },
    ]);

    const moved = await bed.move('main', 'outbox', {
      to: { connectionId: 'pg', queueName: 'outbox' },
      jobIds: [job.id, urgent.id, 'nope'],
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      succeeded: 2,
      failed: 1,
      target: { connectionId: 'pg', queueName: 'outbox', prefix: 'bullmq' },
    });
    expect(moved.body.results[2]).toMatchObject({ jobId: 'nope', ok: false, code: 'NOT_FOUND' });
    expect(await source.getJobCountByTypes('waiting', 'delayed', 'prioritized')).toBe(0);

    const target = bed.pgQueue('outbox');
    const copy = (await target.getJob(movedJobId('outbox', job.id!)))!;
    expect(copy).toMatchObject({ name: 'invoice', data: { n: 7 }, timestamp: 1_700_000_000_000, attemptsMade: 2 });
    expect(copy.opts).toMatchObject({ attempts: 5, backoff: { type: 'fixed', delay: 10 }, keepLogs: 10 });
    expect(copy.opts.delay ?? 0).toBe(0);
    // Redis keeps keepLogs as `kl`; BullMQ's PostgreSQL SQL reads options by their long names.
    expect(
      await queryDatabase(bed.pg.database.url, `SELECT opts->>'keepLogs' AS kept FROM bullmq.job WHERE id = $1`, [
        copy.id,
      ]),
    ).toEqual([{ kept: '10' }]);
    expect(await copy.getState()).toBe('waiting');
    expect(await target.getJobLogs(copy.id!)).toEqual({ logs: ['first try', 'second try'], count: 2 });
    const prioritized = (await target.getJob(movedJobId('outbox', urgent.id!)))!;
    expect({ state: await prioritized.getState(), priority: prioritized.priority }).toEqual({
      state: 'prioritized',
      priority: 3,
    });
    expect(await journalRows()).toBe(2);

    const ran: Array<{ id: string; attemptsMade: number }> = [];
    const worker = new Worker(
      'outbox',
      async (running) => void ran.push({ id: running.id!, attemptsMade: running.attemptsMade }),
      { ...bed.pg.bullmq },
      createPostgresBackend,
    );
    try {
      await waitFor(() => ran.length === 2, 15_000, 'the PostgreSQL worker to run both copies');
    } finally {
      await worker.close();
    }
    expect(ran).toContainEqual({ id: copy.id, attemptsMade: 2 });
  });

  it('moves a whole status as a background task, its total counted by the journal', async () => {
    const source = bed.redisQueue('bounced');
    await source.addBulk(Array.from({ length: 30 }, (_, n) => ({ name: 'mail', data: { n } })));
    const accepted = await bed.move('main', 'bounced', {
      to: { connectionId: 'pg', queueName: 'bounced' },
      status: 'waiting',
      all: true,
      async: true,
    });
    expect(accepted.status).toBe(202);
    const task = await waitFor(
      async () => {
        await bed.app.services.tasks.runOnce();
        const read = await fetch(`${bed.app.api}/c/main/tasks/${accepted.body.taskId}`);
        const body = (await read.json()) as { state: string; result: unknown };
        return body.state === 'done' ? body : undefined;
      },
      20_000,
      'the move task to end',
    );
    expect(task?.result).toMatchObject({ moved: 30, refused: 0 });
    expect(await bed.pgQueue('bounced').getWaitingCount()).toBe(30);
    expect(await source.getWaitingCount()).toBe(0);
  });
});

describe('the move journal dropped while the service runs', () => {
  it('is made again by the next move into the connection', async () => {
    await queryDatabase(bed.pg.database.url, 'DROP TABLE bullmq.bullpen_move_journal');
    const job = await bed.redisQueue('outbox').add('again', {});
    const moved = await bed.move('main', 'outbox', {
      to: { connectionId: 'pg', queueName: 'outbox' },
      jobIds: [job.id],
    });
    expect(moved.body).toMatchObject({ succeeded: 1, failed: 0 });
    expect(await journalRows()).toBe(1);
  });
});

describe('moving jobs from PostgreSQL', () => {
  it('to Redis: failed jobs keep their attempts and logs and become waiting jobs', async () => {
    const source = await seedPostgresQueue(bed.pg.bullmq, bed.pgQueue('reports'), { failed: 3, completed: 2 });
    const failed = await source.getFailed();
    const moved = await bed.move('pg', 'reports', {
      to: { connectionId: 'main', queueName: 'reports-retry' },
      status: 'failed',
      all: true,
    });
    expect(moved.body).toMatchObject({ succeeded: 3, failed: 0, done: true, remaining: 0 });
    expect(await source.getJobCounts('failed', 'completed')).toEqual({ failed: 0, completed: 2 });
    const target = bed.redisQueue('reports-retry');
    for (const job of failed) {
      const copy = (await target.getJob(movedJobId('reports', job.id!)))!;
      expect(copy).toMatchObject({ name: 'work', data: { fail: true }, attemptsMade: 1, timestamp: job.timestamp });
      expect(await copy.getState()).toBe('waiting');
      expect(await target.getJobLogs(copy.id!)).toEqual({ logs: [`ran ${job.id}`], count: 1 });
    }
  });

  it('within one PostgreSQL connection, keeping ids', async () => {
    const source = bed.pgQueue('drafts');
    await source.add('draft', { d: 1 }, { jobId: 'd-1', removeOnComplete: 5 });
    const moved = await bed.move('pg', 'drafts', { to: { queueName: 'drafts-2' }, jobIds: ['d-1'], keepIds: true });
    expect(moved.body).toMatchObject({ succeeded: 1, target: { connectionId: 'pg', queueName: 'drafts-2' } });
    const copy = (await bed.pgQueue('drafts-2').getJob('d-1'))!;
    expect(copy).toMatchObject({ name: 'draft', data: { d: 1 } });
    expect(copy.opts).toMatchObject({ removeOnComplete: 5 });
    expect(await source.getJob('d-1')).toBeUndefined();
  });

  it('refuses what may not move, as on Redis: a job a worker holds, flow members, a scheduler run, an id the target holds', async () => {
    const source = bed.pgQueue('guarded');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker('guarded', () => gate, { ...bed.pg.bullmq, concurrency: 1 }, createPostgresBackend);
    const flows = new FlowProducer(bed.pg.bullmq, createPostgresBackend);
    try {
      await source.add('held', {}, { jobId: 'held' });
      await waitFor(async () => (await source.getActiveCount()) === 1, 10_000, 'the worker to hold the job');
      await flows.add({
        name: 'parent',
        queueName: 'guarded',
        opts: { jobId: 'parent' },
        children: [{ name: 'child', queueName: 'guarded', opts: { jobId: 'child' } }],
      });
      await source.upsertJobScheduler('yearly', { pattern: '0 0 1 1 *' });
      const [scheduled] = await source.getDelayed();
      await source.add('clash', {}, { jobId: 'clash' });
      await bed.redisQueue('guarded-dest').add('already', {}, { jobId: movedJobId('guarded', 'clash') });
      const ids = ['held', 'parent', 'child', scheduled!.id!, 'clash'];
      const moved = await bed.move('pg', 'guarded', {
        to: { connectionId: 'main', queueName: 'guarded-dest' },
        jobIds: ids,
      });
      expect(moved.body).toMatchObject({ succeeded: 0, failed: 5 });
      expect(moved.body.results.map((result: { code: string; error: string }) => [result.code, result.error])).toEqual([
        ['LOCKED', expect.stringContaining('being processed')],
        ['FAILED', expect.stringContaining('part of a flow')],
        ['FAILED', expect.stringContaining('part of a flow')],
        ['FAILED', expect.stringContaining("job scheduler's next run")],
        ['FAILED', expect.stringContaining('already holds')],
      ]);
      for (const id of ids) expect(await source.getJob(id), id).toBeDefined();
      expect(await bed.redisQueue('guarded-dest').getJobCountByTypes('waiting')).toBe(1);
    } finally {
      release();
      await worker.close();
      await flows.close();
    }
  });
});
