import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { bullpen, counts, failedIds, queue, queueName, store, useSeededServer } from './support/seeded-server.js';

useSeededServer();

describe('bullpen CLI (the real binary against a live server)', () => {
  it('pauses and resumes a queue', async () => {
    const paused = await bullpen(['pause', queueName, '--json']);
    expect(JSON.parse(paused.stdout)).toEqual({ success: true, isPaused: true });
    expect(await queue.isPaused()).toBe(true);
    const resumed = await bullpen(['resume', queueName]);
    expect(resumed.stdout).toBe(`${queueName} is running\n`);
    expect(await queue.isPaused()).toBe(false);
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
    expect(run.stderr).toContain(
      `This removes every completed job of "${queueName}" on connection "main".\nType the queue name to confirm:`,
    );
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
    expect(result).toMatchObject({
      success: true,
      statusesPurged: ['failed'],
      totalRemoved: 3,
      removedByStatus: { failed: 3 },
    });
    expect([...result.removedJobIdsSample].sort()).toEqual(failedIds);
    expect(await counts()).toMatchObject({ completed: 0, failed: 0 });
  });
});
