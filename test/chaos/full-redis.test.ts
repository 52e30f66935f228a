import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { seedFailedJobs } from '../tasks/support/failed-jobs.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { ownRedis } from './support/own-redis.js';

const prefix = 'chaos';

/**
 * Issue 34, item 4: a Redis at `maxmemory` with `noeviction` refuses every write that adds. Each
 * such route (the fault run's list, and moves) answers 503 STORE_OUT_OF_MEMORY with Retry-After (never 500, never a 200 listing each
 * job as failed), nothing is half-written, and writes work again once memory is freed. A purge
 * cut by a store fault (writes paused past the command timeout) says how much it removed first.
 */
describe('a Redis at maxmemory (noeviction)', () => {
  const own = ownRedis(['--maxmemory-policy', 'noeviction']);
  const replica = ownRedis();
  let app: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    await replica.redis.call('REPLICAOF', '127.0.0.1', String(own.server.port));
    const replicaEnv = { SERVICE_REDIS_URL_REPLICA: replica.server.url, SERVICE_REDIS_URL_REPLICA_PREFIX: prefix };
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MAIN: own.server.url,
        SERVICE_REDIS_URL_MAIN_PREFIX: prefix,
        SERVICE_QUEUE_LIST_CACHE_MS: '0',
        ...replicaEnv,
      },
    });
    queue = new Queue('full', { connection: own.connection, prefix });
  });
  afterAll(async () => {
    await queue?.close();
    await app?.close();
  });
  const on = (path: string) => `${app.api}/c/main${path}`;

  const writes: Array<[label: string, method: string, path: string, body: unknown]> = [
    ['add', 'POST', '/queues/full/jobs', { name: 'added' }],
    ['add with an id', 'POST', '/queues/full/jobs', { name: 'added', jobId: 'custom-1' }],
    ['edit data', 'PATCH', '/queues/full/jobs/victim', { data: { fixed: true } }],
    ['duplicate', 'POST', '/queues/full/jobs/victim/duplicate', {}],
    ['pause', 'POST', '/queues/full/pause', {}],
    [
      'scheduler create',
      'POST',
      '/scheduled-jobs/queue/full',
      { schedulerId: 'tick', name: 'tick', schedule: { type: 'every', everyMs: 60_000 } },
    ],
    ['move (status)', 'POST', '/queues/full/jobs/move', { to: { queueName: 'full-dlq' }, status: 'failed', all: true }],
    ['move (ids)', 'POST', '/queues/full/jobs/move', { to: { queueName: 'full-dlq' }, jobIds: ['victim'] }],
  ];
  // Not listed: removals, purges and retries. Redis lets a script that deletes before it adds run at
  // maxmemory (deleting frees memory), so those succeed, and answer what they did.

  it('answers every write route 503 STORE_OUT_OF_MEMORY with Retry-After, changes nothing, and recovers', {
    timeout: chaosTimeout(),
  }, async () => {
    const failed = chaosSize(200, 5000);
    await seedFailedJobs(own.redis, prefix, 'full', failed);
    await queue.add('victim', { n: 1 }, { jobId: 'victim' });
    // The dlq exists, so the moves reach their write (creating a queue is itself a write).
    await new Queue('full-dlq', { connection: own.connection, prefix }).close();
    await own.redis.config('SET', 'maxmemory', '1');
    const answers: Array<{ label: string; status: number; code: string; retryAfter: string | null }> = [];
    try {
      for (const [label, method, path, body] of writes) {
        const answer = await request(on(path), { method, body });
        answers.push({
          label,
          status: answer.status,
          code: answer.body?.code,
          retryAfter: answer.headers.get('retry-after'),
        });
      }
    } finally {
      await own.redis.config('SET', 'maxmemory', '0');
    }
    const wrong = answers.filter(
      (answer) => answer.status !== 503 || answer.code !== 'STORE_OUT_OF_MEMORY' || !answer.retryAfter,
    );
    recordChaosRow({
      scenario: `Redis at maxmemory: ${writes.length} write routes (${failed} failed jobs)`,
      expected: 'every one 503 STORE_OUT_OF_MEMORY + Retry-After, no 500',
      observed:
        wrong.length === 0
          ? `all ${answers.length}: 503 STORE_OUT_OF_MEMORY`
          : wrong.map((answer) => `${answer.label}: ${answer.status} ${answer.code}`).join('; '),
      held: wrong.length === 0,
    });
    expect(wrong).toEqual([]);
    // Nothing half-written: the failed set and the victim are as they were.
    expect(await queue.getJobCounts('failed', 'waiting')).toEqual({ failed, waiting: 1 });
    expect(await queue.isPaused()).toBe(false);
    expect((await queue.getJob('victim'))?.data).toEqual({ n: 1 });
    expect(await own.redis.exists(`${prefix}:full-dlq:wait`)).toBe(0);
    expect((await request(on('/queues/full/jobs'), { method: 'POST', body: { name: 'after' } })).status).toBe(201);
  });

  it('a purge cut by a store fault answers 503 with what it removed before it', {
    timeout: chaosTimeout(),
  }, async () => {
    const jobs = chaosSize(20_000, 100_000);
    await seedFailedJobs(own.redis, prefix, 'cut', jobs);
    const purging = request(on('/queues/cut/purge'), {
      method: 'POST',
      body: { confirmName: 'cut', statuses: ['failed'] },
    });
    // Writes stall past the service's 2 s command timeout once the purge is under way.
    for (let left = jobs; left > jobs - 2000 && left > 0; left = await own.redis.zcard(`${prefix}:cut:failed`))
      await new Promise((resolve) => setTimeout(resolve, 5));
    await own.redis.call('CLIENT', 'PAUSE', '4000', 'WRITE');
    const answer = await purging;
    await new Promise((resolve) => setTimeout(resolve, 4500));
    const removed = jobs - (await own.redis.zcard(`${prefix}:cut:failed`));
    const reported = answer.body.removedSoFar as number;
    // The batch in flight when the writes stalled runs once the pause lifts: the store may hold one batch (≤ 1,000) fewer than reported.
    const held =
      answer.status === 503 &&
      answer.body.done === false &&
      reported > 0 &&
      removed >= reported &&
      removed - reported <= 1000;
    recordChaosRow({
      scenario: `purge of ${jobs} cut by a store fault (writes paused)`,
      expected: '503 with removedSoFar = removed (± the batch in flight)',
      observed: `${answer.status} ${answer.body.code}, removedSoFar ${reported}, removed ${removed}`,
      held,
    });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      done: false,
      removedByStatus: { failed: reported },
    });
    expect(held).toBe(true);
  });

  it('a read-only replica answers a write 503 STORE_UNAVAILABLE with Retry-After', async () => {
    const seeded = new Queue('ro', { connection: own.connection, prefix });
    await seeded.add('seed', {});
    await seeded.close();
    await waitFor(async () => (await replica.redis.exists(`${prefix}:ro:meta`)) === 1, 10_000, 'the replica to sync');
    const answer = await request(`${app.api}/c/replica/queues/ro/jobs`, { method: 'POST', body: { name: 'added' } });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      connectionId: 'replica',
      message: expect.stringMatching(/read-only replica/),
    });
    expect(answer.headers.get('retry-after')).toBeTruthy();
  });
});
