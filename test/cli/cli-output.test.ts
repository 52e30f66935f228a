import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runBullpen } from '../helpers/cli.js';
import { app, bullpen, counts, failedIds, queueName, store, useSeededServer } from './support/seeded-server.js';

useSeededServer();

describe('bullpen CLI (the real binary against a live server)', () => {
  it("runs compiled, with no tsx, on the machine's Node 20 (the `node` on /usr/bin) and prints help", async () => {
    const version = await new Promise<string>((resolve) =>
      execFile('/usr/bin/node', ['--version'], (_error, stdout) => resolve(stdout.trim())),
    );
    expect(version).toMatch(/^v20\./);
    const run = await runBullpen(['--help'], { path: '/usr/bin:/bin', compiled: true });
    expect(run.code).toBe(0);
    for (const command of [
      'connections',
      'queues',
      'jobs',
      'job',
      'retry',
      'purge',
      'pause',
      'resume',
      'keys',
      'watch',
    ]) {
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
    expect(JSON.parse(connections.stdout).connections).toEqual([
      expect.objectContaining({ id: 'main', isDefault: true }),
    ]);

    expect(table.code).toBe(0);
    const header = table.stdout.split('\n')[0]!;
    expect(header).toMatch(/^QUEUE\s+PREFIX\s+PAUSED\s+WAITING\s+ACTIVE\s+DELAYED\s+PRIORITIZED\s+COMPLETED\s+FAILED$/);
    expect(table.stdout).toMatch(new RegExp(`^${queueName}\\s+${store.prefix}\\s+0\\s+0\\s+0\\s+0\\s+3\\s+3$`, 'm'));

    const listed = JSON.parse(json.stdout);
    expect(listed).toMatchObject({ total: 1, page: 1, hasMore: false });
    expect(listed.queues[0]).toMatchObject({
      name: queueName,
      isPaused: false,
      jobCounts: { completed: 3, failed: 3, waiting: 0 },
    });

    expect(
      JSON.parse(failedJson.stdout)
        .jobs.map((job: { id: string }) => job.id)
        .sort(),
    ).toEqual(failedIds);
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
    expect(unreachable.stderr).toContain('cannot reach the Bullpen service at http://127.0.0.1:9');
    expect(overridden.code).toBe(0);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--status');
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toMatch(/\(VALIDATION_FAILED, HTTP 400\)\n {2}statuses\.0: /);
    expect(await counts()).toMatchObject({ completed: 3, failed: 3 });
  });

  it('finds the store keys of a queue by pattern', async () => {
    const run = await bullpen(['keys', `${store.prefix}:${queueName}:*`, '--json', '--limit', '1000']);
    const keys = JSON.parse(run.stdout).keys.map((key: { key: string }) => key.key);
    expect(keys).toContain(`${store.prefix}:${queueName}:meta`);
    expect(keys).toContain(`${store.prefix}:${queueName}:failed`);
    expect(keys.every((key: string) => key.startsWith(`${store.prefix}:${queueName}:`))).toBe(true);
  });
});
