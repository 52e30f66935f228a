import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { spawnBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { app, bullpen, seed, store, useSeededServer } from './support/seeded-server.js';

useSeededServer();

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
    const events = () =>
      stdout()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { type: string; jobId?: string });
    await waitFor(
      () => events().some((event) => event.type === 'added' && event.jobId === job.id),
      10_000,
      'the added event',
    );
    child.kill('SIGINT');
    expect((await result).code).toBe(0);
    expect(events()[0]).toMatchObject({ type: 'added', jobId: job.id, queueName: 'watched' });
    await watched.close();
  });
});
