import type { Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBullpen } from '../helpers/cli.js';
import { queueTestBed } from '../helpers/queues.js';

describe('bullpen queues --state and --totals (the real binary against a live server)', () => {
  const bed = queueTestBed();
  const bullpen = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: bed.app.url } });
  /** The listed queue names of a table: the first column of every row between the header and the footer. */
  const tableNames = (stdout: string) =>
    stdout
      .split('\n')
      .slice(1)
      .filter((line) => line && !line.startsWith('page ') && !line.startsWith('totals'))
      .map((line) => line.split(/\s+/)[0]);
  let queues: Queue[];

  beforeAll(async () => {
    // paused: two jobs waiting, paused; failing: failed jobs (and nothing left to run); idle: only completed jobs.
    queues = [
      await bed.seeded('paused', { waiting: 2 }),
      await bed.seeded('failing', { failed: 2, completed: 1 }),
      await bed.seeded('idle', { completed: 3 }),
    ];
    await queues[0]!.pause();
  });

  /** The sums BullMQ itself reports over the three queues. */
  async function countedByBullmq() {
    const counts = await Promise.all(
      queues.map((queue) => queue.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'completed', 'failed')),
    );
    const sum = (kind: string) => counts.reduce((total, one) => total + one[kind]!, 0);
    return {
      waiting: sum('wait'),
      active: sum('active'),
      delayed: sum('delayed'),
      prioritized: sum('prioritized'),
      completed: sum('completed'),
      failed: sum('failed'),
    };
  }

  it('keeps the queues of one state with --state (states overlap: a failing queue with nothing to run is idle too)', async () => {
    const inState = (state: string) => bullpen(['queues', '--state', state]);
    const [paused, running, failing, idle] = await Promise.all([
      inState('paused'),
      inState('running'),
      inState('failing'),
      inState('idle'),
    ]);
    expect(paused.stderr).toBe('');
    expect(tableNames(paused.stdout)).toEqual(['paused']);
    expect(paused.stdout).toMatch(/^paused\s+\S+\s+paused\s+2\s+0\s+0\s+0\s+0\s+0$/m);
    expect(paused.stdout).toContain('page 1 of 1, 1 paused queues\n');
    expect(tableNames(running.stdout)).toEqual(['failing', 'idle']);
    expect(tableNames(failing.stdout)).toEqual(['failing']);
    expect(tableNames(idle.stdout)).toEqual(['failing', 'idle']);
    expect(paused.stdout).not.toContain('totals');
  });

  it('prints a totals line over every queue under the table with --totals, whatever --state keeps', async () => {
    const expected = await countedByBullmq();
    expect(expected).toMatchObject({ waiting: 2, completed: 4, failed: 2 });
    const run = await bullpen(['queues', '--state', 'failing', '--totals']);
    expect(run.code).toBe(0);
    expect(tableNames(run.stdout)).toEqual(['failing']);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `totals, every queue: waiting ${expected.waiting}, active ${expected.active}, delayed ${expected.delayed}, prioritized ${expected.prioritized}, ` +
        `completed ${expected.completed}, failed ${expected.failed}, paused 0, waitingChildren 0`,
    );
  });

  it('includes the totals object as the API answers it with --json --totals, and none without --totals', async () => {
    const [withTotals, without] = await Promise.all([
      bullpen(['queues', '--json', '--totals', '--state', 'paused']),
      bullpen(['queues', '--json', '--state', 'idle']),
    ]);
    const listed = JSON.parse(withTotals.stdout);
    expect(listed.queues.map((queue: { name: string }) => queue.name)).toEqual(['paused']);
    expect(listed.total).toBe(1);
    expect(listed.totals).toEqual({ ...(await countedByBullmq()), paused: 0, waitingChildren: 0 });
    const plain = JSON.parse(without.stdout);
    expect(plain.queues.map((queue: { name: string }) => queue.name)).toEqual(['failing', 'idle']);
    expect(plain).not.toHaveProperty('totals');
  });

  it("exits 1 with the server's validation message for an unknown state", async () => {
    const run = await bullpen(['queues', '--state', 'stuck']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\(VALIDATION_FAILED, HTTP 400\)\n {2}state: /);
    expect(run.stdout).toBe('');
  });
});
