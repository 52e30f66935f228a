import { execFile } from 'node:child_process';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { runBullpen, spawnBullpen, type CliOptions } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { storeFixture } from '../helpers/stores.js';

const store = storeFixture();
let app: TestApp;
const queueName = 'mail outbound';
let queue: Queue;
let failedIds: string[];

/** A real Worker completes the even jobs and fails the odd ones (after writing a log line). */
async function seed(name: string, total: number): Promise<Queue> {
  const seeded = new Queue(name, store.bullmq);
  await seeded.addBulk(Array.from({ length: total }, (_, i) => ({ name: 'send', data: { n: i, fail: i % 2 === 1 } })));
  let settled = 0;
  const worker = new Worker(
    name,
    async (job) => {
      await job.log(`attempt for ${job.data.n}`);
      if (job.data.fail) throw new Error(`smtp refused ${job.data.n}`);
      return { sent: job.data.n };
    },
    { ...store.bullmq, concurrency: 5 },
  );
  worker.on('completed', () => settled++);
  worker.on('failed', () => settled++);
  await waitFor(() => settled === total, 10_000, 'seeded jobs to settle');
  await worker.close();
  return seeded;
}

const bullpen = (args: string[], options: CliOptions = {}) =>
  runBullpen(args, { ...options, env: { BULLPEN_URL: app.url, ...options.env } });
const counts = () => queue.getJobCounts('waiting', 'completed', 'failed');

beforeAll(async () => {
  app = await bootApp({ env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  queue = await seed(queueName, 6);
  failedIds = (await queue.getFailed()).map((job) => job.id!).sort();
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await store.cleanup();
});

describe('bullpen CLI (the real binary against a live server)', () => {
  it('runs compiled, with no tsx, on the machine\'s Node 20 (the `node` on /usr/bin) and prints help', async () => {
    const version = await new Promise<string>((resolve) => execFile('/usr/bin/node', ['--version'], (_error, stdout) => resolve(stdout.trim())));
    expect(version).toMatch(/^v20\./);
    const run = await runBullpen(['--help'], { path: '/usr/bin:/bin', compiled: true });
    expect(run.code).toBe(0);
    for (const command of ['connections', 'queues', 'jobs', 'job', 'retry', 'purge', 'pause', 'resume', 'keys', 'watch']) {
      expect(run.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('lists connections, queues of the default connection, and failed jobs, as tables and as JSON', async () => {
    const [connections, table, json, failedJson, failedTable] = await Promise.all([
      bullpen(['connections', '--json']),
      bullpen(['queues']),
      bullpen(['queues', '--json', '--search', 'mail']),
      bullpen(['jobs', queueName, '--status', 'failed', '--json']),
      bullpen(['jobs', queueName, '--status', 'failed']),
    ]);
    expect(JSON.parse(connections.stdout).connections).toEqual([expect.objectContaining({ id: 'main', isDefault: true })]);

    expect(table.code).toBe(0);
    const header = table.stdout.split('\n')[0]!;
    expect(header).toMatch(/^QUEUE\s+PREFIX\s+PAUSED\s+WAITING\s+ACTIVE\s+DELAYED\s+PRIORITIZED\s+COMPLETED\s+FAILED$/);
    expect(table.stdout).toMatch(new RegExp(`^${queueName}\\s+${store.prefix}\\s+0\\s+0\\s+0\\s+0\\s+3\\s+3$`, 'm'));

    const listed = JSON.parse(json.stdout);
    expect(listed).toMatchObject({ total: 1, page: 1, hasMore: false });
    expect(listed.queues[0]).toMatchObject({ name: queueName, isPaused: false, jobCounts: { completed: 3, failed: 3, waiting: 0 } });

    expect(JSON.parse(failedJson.stdout).jobs.map((job: { id: string }) => job.id).sort()).toEqual(failedIds);
    expect(failedTable.stdout).toContain('smtp refused 1');
    expect(failedTable.stdout).toMatch(/page 1 of 1, 3 failed jobs/);
  });

  it('shows one job with its logs', async () => {
    const run = await bullpen(['job', queueName, failedIds[0]!, '--logs']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^state:\s+failed$/m);
    expect(run.stdout).toMatch(/^failed reason:\s+smtp refused \d$/m);
    expect(run.stdout).toMatch(/^logs \(1\):\n {2}attempt for \d$/m);
  });

  it('exits 1 with the server message and code when the server refuses, as text or JSON', async () => {
    const [missing, missingJson, unknownConnection] = await Promise.all([
      bullpen(['job', queueName, 'no-such-job']),
      bullpen(['job', queueName, 'no-such-job', '--json']),
      bullpen(['queues', '--conn', 'nowhere']),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*\(NOT_FOUND, HTTP 404\)$/m);
    expect(missing.stdout).toBe('');
    expect(missingJson.code).toBe(1);
    expect(JSON.parse(missingJson.stderr).error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(unknownConnection.code).toBe(1);
    expect(unknownConnection.stderr).toMatch(/^error: .*\(NOT_FOUND, HTTP 404\) connectionId="nowhere"$/m);
  });

  it('exits 1 naming the address when no server answers, 1 with the validation message on bad input, 2 on bad usage', async () => {
    const nowhere = { env: { BULLPEN_URL: 'http://127.0.0.1:9' } };
    const [unreachable, overridden, usage, badStatus] = await Promise.all([
      bullpen(['connections'], nowhere),
      bullpen(['connections', '--json', '--url', app.url], nowhere),
      bullpen(['purge', queueName]),
      bullpen(['purge', queueName, '--status', 'stuck', '--yes']),
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:9');
    expect(overridden.code).toBe(0);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--status');
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toMatch(/\(VALIDATION_FAILED, HTTP 400\)\n {2}statuses\.0: /);
    expect(await counts()).toMatchObject({ completed: 3, failed: 3 });
  });

  it('pauses and resumes a queue', async () => {
    const paused = await bullpen(['pause', queueName, '--json']);
    expect(JSON.parse(paused.stdout)).toEqual({ success: true, isPaused: true });
    expect(await queue.isPaused()).toBe(true);
    const resumed = await bullpen(['resume', queueName]);
    expect(resumed.stdout).toBe(`${queueName} is running\n`);
    expect(await queue.isPaused()).toBe(false);
  });

  it('finds the store keys of a queue by pattern', async () => {
    const run = await bullpen(['keys', `${store.prefix}:${queueName}:*`, '--json', '--limit', '1000']);
    const keys = JSON.parse(run.stdout).keys.map((key: { key: string }) => key.key);
    expect(keys).toContain(`${store.prefix}:${queueName}:meta`);
    expect(keys).toContain(`${store.prefix}:${queueName}:failed`);
    expect(keys.every((key: string) => key.startsWith(`${store.prefix}:${queueName}:`))).toBe(true);
  });
});

describe('bullpen obliterate', () => {
  it('removes nothing unless the queue name is typed (or --yes), then removes every key of the queue', async () => {
    const doomed = new Queue('doomed', store.bullmq);
    await doomed.add('x', {});
    try {
      const refused = await bullpen(['obliterate', 'doomed'], { input: 'dooomed\n' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('nothing removed');
      expect(await store.redis.keys(`${store.prefix}:doomed:*`)).not.toEqual([]);
      const done = await bullpen(['obliterate', 'doomed', '--yes']);
      expect(done.code).toBe(0);
      expect(done.stdout).toBe('obliterated doomed (1 job(s) removed)\n');
      expect(await store.redis.keys(`${store.prefix}:doomed:*`)).toEqual([]);
    } finally {
      await doomed.close();
    }
  });
});

describe('bullpen purge', () => {
  it('asks for the queue name on stdin and purges nothing when it does not match', async () => {
    const run = await bullpen(['purge', queueName, '--status', 'completed'], { input: 'mail\n' });
    expect(run.stderr).toContain(`This removes every completed job of "${queueName}" on connection "main".\nType the queue name to confirm:`);
    expect(run.stderr).toContain('nothing purged');
    expect(run.code).toBe(1);
    expect(await counts()).toMatchObject({ completed: 3, failed: 3 });
  });

  it('purges the status once the queue name is typed, leaving other statuses', async () => {
    const run = await bullpen(['purge', queueName, '--status', 'completed'], { input: `${queueName}\n` });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`purged 3 job(s) from ${queueName} (completed 3)\n`);
    expect(await counts()).toMatchObject({ completed: 0, failed: 3 });
  });

  it('purges without asking with --yes and prints the API result with --json', async () => {
    const purged = await bullpen(['purge', queueName, '--status', 'failed', '--yes', '--json']);
    const result = JSON.parse(purged.stdout);
    expect(result).toMatchObject({ success: true, statusesPurged: ['failed'], totalRemoved: 3, removedByStatus: { failed: 3 } });
    expect([...result.removedJobIdsSample].sort()).toEqual(failedIds);
    expect(await counts()).toMatchObject({ completed: 0, failed: 0 });
  });
});

describe('bullpen retry and watch', () => {
  it('retries named jobs and every failed job, reporting refused ids', async () => {
    const retried = await seed('retry me', 4);
    const failed = (await retried.getFailed()).map((job) => job.id!);
    const one = await bullpen(['retry', 'retry me', failed[0]!, 'no-such-job']);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/^no-such-job\s+NOT_FOUND/m);
    expect(one.stdout).toContain('retried 1 job(s) in retry me, 1 refused');
    const all = await bullpen(['retry', 'retry me', '--all-failed', '--json']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ succeeded: 1, remaining: 0 });
    expect(await retried.getJobCounts('waiting', 'failed')).toEqual({ waiting: 2, failed: 0 });
    await retried.close();
  });

  it('streams live events as JSON lines until interrupted', async () => {
    const watched = new Queue('watched', store.bullmq);
    await watched.getVersion(); // the meta write: the stream 404s a queue that does not exist
    const { child, result, stdout } = spawnBullpen(['watch', 'watched', '--json'], { env: { BULLPEN_URL: app.url } });
    await waitFor(() => app.services.events.subscribers === 1, 10_000, 'the CLI to subscribe');
    const job = await watched.add('ping', {});
    const events = () => stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; jobId?: string });
    await waitFor(() => events().some((event) => event.type === 'added' && event.jobId === job.id), 10_000, 'the added event');
    child.kill('SIGINT');
    expect((await result).code).toBe(0);
    expect(events()[0]).toMatchObject({ type: 'added', jobId: job.id, queueName: 'watched' });
    await watched.close();
  });
});
