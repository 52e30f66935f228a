import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBullpen, spawnBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { repoRoot } from '../helpers/process.js';
import { queueTestBed } from '../helpers/queues.js';

/**
 * The CLI as an operator runs it (issue 35): `top` in a real terminal (a
 * pseudo-terminal), `watch` into `head`, a service that is not there, and
 * the queue list right after the first queue appears.
 */
const bed = queueTestBed();
const env = () => ({ BULLPEN_URL: bed.app.url });

/** `bullpen args… | head -n lines` in bash: what head printed, and bullpen's exit code and stderr. */
function pipeIntoHead(args: string[], lines: number, extraEnv: Record<string, string>) {
  const cli = [process.execPath, '--import', 'tsx', path.join(repoRoot, 'client/cli/main.ts'), ...args]
    .map((word) => `'${word}'`)
    .join(' ');
  const child = spawn('bash', ['-c', `${cli} 2>"$BULLPEN_STDERR" | head -n ${lines}; echo "exit=\${PIPESTATUS[0]}"`], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...extraEnv },
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { stdout: () => stdout, done };
}

describe('bullpen top in a terminal', () => {
  it('stays live, redrawing every 2 s, until Ctrl-C, then exits 0', async () => {
    const queue = await bed.seeded('top-live', { waiting: 3 });
    const run = spawnBullpen(['top'], { env: env(), terminal: true });
    const frames = () =>
      run
        .stdout()
        .split('\u001b[H\u001b[2J')
        .filter((frame) => frame.includes('top-live')).length;
    await waitFor(() => frames() >= 3, 20_000, 'three frames of bullpen top');
    expect(run.child.exitCode).toBeNull();
    run.child.stdin!.write('\u0003'); // Ctrl-C, as the terminal sends it
    const result = await run.result;
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/unsettled top-level await|Warning/);
    expect(result.stdout).toMatch(/^top-live\s+3\s/m);
    await queue.close();
  }, 30_000);
});

describe('bullpen watch into a closed pipe', () => {
  it('ends quietly with exit 0 once head has read its lines', async () => {
    const queue = bed.openQueue('piped');
    await queue.getVersion(); // the meta write: the stream 404s a queue that does not exist
    const stderrFile = path.join(repoRoot, 'test-artifacts', `watch-stderr-${process.pid}.txt`);
    await mkdir(path.dirname(stderrFile), { recursive: true });
    const piped = pipeIntoHead(['watch', 'piped'], 5, { ...env(), BULLPEN_STDERR: stderrFile });
    await waitFor(() => bed.app.services.events.subscribers === 1, 15_000, 'the CLI to subscribe');
    let finished = false;
    void piped.done.then(() => (finished = true));
    // More events than head reads: the write after head has gone meets the closed pipe.
    for (let batch = 0; batch < 50 && !finished; batch++) {
      await queue.addBulk(Array.from({ length: 5 }, (_, n) => ({ name: `job-${batch}-${n}`, data: {} })));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await piped.done).toBe(0);
    const stderr = await readFile(stderrFile, 'utf8');
    await rm(stderrFile, { force: true });
    expect(
      piped
        .stdout()
        .split('\n')
        .slice(0, 5)
        .every((line) => /^\d\d:\d\d:\d\d\.\d{3}\s+\w+/.test(line)),
    ).toBe(true);
    expect(piped.stdout()).toMatch(/exit=0\n$/);
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
  }, 30_000);
});

/** A loopback port nothing listens on (fetch refuses some well-known ones outright). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a service the CLI cannot reach', () => {
  it('names BULLPEN_URL and --url, and where the address came from', async () => {
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const fromEnv = await runBullpen(['queues'], { env: { BULLPEN_URL: nowhere } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toBe(
      `error: cannot reach the Bullpen service at ${nowhere} (ECONNREFUSED); that is the address in BULLPEN_URL: is the service running there? (--url overrides it)\n`,
    );
    const fromFlag = await runBullpen(['queues', '--url', nowhere, '--json']);
    expect(JSON.parse(fromFlag.stderr).error).toMatchObject({
      code: 'NETWORK_ERROR',
      url: nowhere,
      reason: 'ECONNREFUSED',
    });
    expect(JSON.parse(fromFlag.stderr).error.message).toContain('the address --url gave');
    const watch = await runBullpen(['watch', 'emails', '--url', nowhere]);
    expect(watch.stderr).toContain(`cannot reach the Bullpen service at ${nowhere} (ECONNREFUSED)`);
  });
});

describe('bullpen queues right after the first queue appears', () => {
  // The default list cache (5 s), on a store of its own that holds no queue yet.
  const empty = queueTestBed({ SERVICE_QUEUE_LIST_CACHE_MS: '5000' });

  it('lists it on the first try, within the cache window: an index that knows no queue waits for a rescan', async () => {
    const bullpenOnEmpty = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: empty.app.url } });
    expect(JSON.parse((await bullpenOnEmpty(['queues', '--json'])).stdout)).toMatchObject({ total: 0, queues: [] });
    const appeared = empty.openQueue('appeared-just-now');
    await appeared.add('first', {});
    await waitFor(
      async () => (await empty.fixture.redis.exists(`${empty.fixture.prefix}:appeared-just-now:meta`)) === 1,
      5_000,
      'the queue meta key',
    );
    // Rescans of an index that knows no queue are spaced 10× their duration (server/discovery/index-entry.ts): on the
    // shared Redis, holding other tests' keys, a scan takes up to ~100 ms. 1.5 s later is still well inside the 5 s window.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const listed = await bullpenOnEmpty(['queues', '--json']);
    expect(JSON.parse(listed.stdout).queues.map((queue: { name: string }) => queue.name)).toEqual([
      'appeared-just-now',
    ]);
  });
});
