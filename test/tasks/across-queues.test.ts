import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('acting on a status across queues', () => {
  const bed = queueTestBed();
  const across = (action: string, body: unknown) =>
    request(`${bed.app.api}/c/main/jobs/${action}`, { method: 'POST', body });

  it('counts in a dry run exactly what the real run then retries, on the matching queues only', async () => {
    const a = await bed.seeded('mail-eu', { failed: 4 });
    const b = await bed.seeded('mail-us', { failed: 3 });
    const other = await bed.seeded('billing', { failed: 2 });
    const selection = { include: ['mail-*'], exclude: [] };
    const dry = await across('retry', { status: 'failed', queues: selection, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, matched: 7, succeeded: 0, done: true });
    expect(await a.getJobCountByTypes('failed')).toBe(4);

    const real = await across('retry', { status: 'failed', queues: selection });
    expect(real.body).toMatchObject({ dryRun: false, matched: 7, succeeded: 7, done: true });
    expect(real.body.queues.map((q: { queueName: string }) => q.queueName).sort()).toEqual(['mail-eu', 'mail-us']);
    expect(await a.getJobCountByTypes('failed')).toBe(0);
    expect(await b.getJobCountByTypes('wait')).toBe(3);
    expect(await other.getJobCountByTypes('failed')).toBe(2);
  });

  it('runs as a task with async: true, answering 202 with the task id', async () => {
    const queue = await bed.seeded('reports-1', { completed: 5 });
    await bed.seeded('reports-2', { completed: 6 });
    const accepted = await across('remove', {
      status: 'completed',
      queues: { include: ['reports-?'] },
      async: true,
      maxPerSecond: 1000,
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ succeeded: 0, done: false, taskId: expect.any(String) });
    await bed.app.services.tasks.runOnce();
    const task = await waitFor(
      async () => {
        const body = (await request(`${bed.app.api}/c/main/tasks/${accepted.body.taskId}`)).body;
        return body.state === 'done' ? body : undefined;
      },
      10_000,
      'the task to finish',
    );
    expect(task).toMatchObject({ kind: 'jobs.removeAcross', processed: 11, result: { acted: 11, queues: 2 } });
    expect(await queue.getJobCountByTypes('completed')).toBe(0);
  });

  it('matches a ReDoS-shaped glob in linear time (a regular expression built from it backtracked for minutes)', async () => {
    await bed.seeded('a'.repeat(60), { failed: 1 });
    const started = performance.now();
    const dry = await across('retry', {
      status: 'failed',
      queues: { include: [`${'*a'.repeat(30)}*b`, `${'*a'.repeat(30)}*`] },
      dryRun: true,
    });
    expect(dry.status).toBe(200);
    expect(dry.body.queues.map((q: { queueName: string }) => q.queueName)).toContain('a'.repeat(60));
    // Generous for a loaded machine; the regular expression took 9 s with 8 stars and 40 characters.
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('refuses a status the action does not take', async () => {
    const bad = await across('retry', { status: 'waiting' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/status/);
  });
});
