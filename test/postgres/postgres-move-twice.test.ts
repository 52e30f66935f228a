import { Worker, createPostgresBackend, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { movedJobId, movedOpts } from '../../routers/jobs/move-jobs.js';
import { moveAcrossStores, type AcrossEnds } from '../../server/bullmq/move-across-stores.js';
import type { MoveOrder } from '../../server/bullmq/move-within-store.js';
import { postgresMoveEnds } from '../../server/postgres/postgres-move-ends.js';
import { createPostgresPool } from '../../server/postgres/postgres-pool.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import { mixedBed } from './support/mixed-bed.js';

/**
 * "Twice at once": two moves of the same PostgreSQL source started together (same ids, or the same
 * status) — a double-clicked button, two operators. Each job must land in the target exactly once
 * and run once there: the source's row locks let one release take a job, and the target's journal
 * (bullpen_move_journal, serialized per target queue) tells the second delivery it was delivered.
 * The status form takes more jobs than one batch (100), so the two moves interleave batch by batch;
 * the id form takes its most (100 ids).
 */
const bed = mixedBed();

async function seedSource(queueName: string, jobCount: number) {
  const jobs = await bed
    .pgQueue(queueName)
    .addBulk(Array.from({ length: jobCount }, (_, n) => ({ name: 'parcel', data: { n } })));
  return jobs.map((job) => job.id!);
}

/** Both moves at once; each job is reported moved by exactly one of them, and none is left in the source. */
async function moveTwiceAtOnce(source: string, jobCount: number, body: Record<string, unknown>) {
  const answers = await Promise.all([bed.move('pg', source, body), bed.move('pg', source, body)]);
  for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answers[0]!.body.succeeded + answers[1]!.body.succeeded).toBe(jobCount);
  const reported = answers.flatMap((answer) => (answer.body.results ?? []) as Array<{ jobId: string; ok: boolean }>);
  const moved = reported.filter((result) => result.ok).map((result) => result.jobId);
  expect(new Set(moved).size).toBe(moved.length);
  const sourceLeft = await queryDatabase<{ n: number }>(
    bed.pg.database.url,
    `SELECT COUNT(*)::int AS n FROM bullmq.job WHERE queue = $1`,
    [source],
  );
  expect(sourceLeft).toEqual([{ n: 0 }]);
}

/** Runs the target's jobs with a real Worker until every one ran; each `n` must run exactly once. */
async function runEachOnce(worker: (processor: (job: Job) => Promise<void>) => Worker, ids: string[]) {
  const jobCount = ids.length;
  const runs = new Map<number, number>();
  const running = worker(async (job) => void runs.set(job.data.n, (runs.get(job.data.n) ?? 0) + 1));
  try {
    await waitFor(() => runs.size === jobCount, 30_000, 'the worker to run every moved job');
    await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would run meanwhile
  } finally {
    await running.close();
  }
  expect([...runs.values()].every((times) => times === 1)).toBe(true);
  expect([...runs.keys()].sort((a, b) => a - b)).toEqual(ids.map((_, n) => n));
}

describe('two moves of one PostgreSQL source at once', () => {
  it('by the same ids into Redis: every job in the target once, none left behind, each run once', async () => {
    const ids = await seedSource('twice-ids', 100);
    await moveTwiceAtOnce('twice-ids', 100, { to: { connectionId: 'main', queueName: 'twice-ids' }, jobIds: ids });
    const target = bed.redisQueue('twice-ids');
    const copies = await target.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(copies.length).toBe(100);
    expect(new Set(copies.map((job) => job.id))).toEqual(new Set(ids.map((id) => movedJobId('twice-ids', id))));
    await runEachOnce((processor) => new Worker('twice-ids', processor, bed.redis.bullmq), ids);
  });

  it('by the same status into another PostgreSQL queue: the same, with a PostgreSQL Worker', async () => {
    const ids = await seedSource('twice-status', 250);
    await moveTwiceAtOnce('twice-status', 250, {
      to: { queueName: 'twice-status-to' },
      status: 'waiting',
      all: true,
    });
    const rows = await queryDatabase<{ id: string }>(
      bed.pg.database.url,
      `SELECT id FROM bullmq.job WHERE queue = 'twice-status-to'`,
    );
    expect(rows.map((row) => row.id).sort()).toEqual(ids.map((id) => movedJobId('twice-status', id)).sort());
    const journal = await queryDatabase<{ n: number }>(
      bed.pg.database.url,
      `SELECT COUNT(*)::int AS n FROM bullmq.bullpen_move_journal WHERE target_queue = 'twice-status-to'`,
    );
    expect(journal).toEqual([{ n: 250 }]);
    await runEachOnce(
      (processor) => new Worker('twice-status-to', processor, bed.pg.bullmq, createPostgresBackend as never) as Worker,
      ids,
    );
  });

  it('in lockstep (both inspected every job before either delivers): one moves each job, the other finds it moved', async () => {
    const ids = await seedSource('lockstep', 100);
    const pool = await createPostgresPool(
      { url: bed.pg.database.url, tls: { enabled: false, allowSelfSigned: false } },
      { schema: 'bullmq', max: 8 },
    );
    try {
      const from = { connectionId: 'pg', ref: { prefix: 'bullmq', name: 'lockstep' } };
      const ends = postgresMoveEnds(async () => pool, { connectionId: 'pg', schema: 'bullmq' });
      const source = ends.source(from.ref);
      const target = ends.target({ prefix: 'bullmq', name: 'lockstep-to' }, from);
      const opts = await source.readOpts(ids);
      const orders: MoveOrder[] = ids.map((jobId, index) => {
        const targetId = movedJobId('lockstep', jobId);
        return { jobId, targetId, readOpts: opts[index]!, movedOpts: movedOpts(opts[index]!, targetId) };
      });
      let inspected = 0;
      let bothInspected!: () => void;
      const barrier = new Promise<void>((resolve) => (bothInspected = resolve));
      const lockstep = (mover: string): AcrossEnds => ({
        source: {
          inspect: async (batch) => {
            const found = await source.inspect(batch);
            if (++inspected === 2) bothInspected();
            await barrier;
            return found;
          },
          release: (batch) => source.release(batch),
        },
        target,
        mover,
      });
      const [first, second] = await Promise.all([
        moveAcrossStores(lockstep('mover-a'), orders),
        moveAcrossStores(lockstep('mover-b'), orders),
      ]);
      const pairs = first.map((verdict, index) => [verdict, second[index]].sort().join('+'));
      expect(new Set(pairs)).toEqual(new Set(['missing+moved']));
    } finally {
      await pool.end();
    }
    const rows = await queryDatabase<{ queue: string; n: number }>(
      bed.pg.database.url,
      `SELECT queue, COUNT(DISTINCT id)::int AS n FROM bullmq.job WHERE queue LIKE 'lockstep%' GROUP BY queue`,
    );
    expect(rows).toEqual([{ queue: 'lockstep-to', n: 100 }]);
    await runEachOnce(
      (processor) => new Worker('lockstep-to', processor, bed.pg.bullmq, createPostgresBackend as never) as Worker,
      ids,
    );
  });
});
