import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/process.js';
import { descendantPids, isListening, isRunning, waitUntilGone } from '../helpers/process-tree.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'bullpen-npm-start-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** `npm start` as a user runs it, until it prints its URL. */
async function npmStart() {
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      SERVICE_EMBEDDED_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  npm.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (!url && Date.now() < deadline && npm.exitCode === null) {
    url = output.match(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!url) throw new Error(`npm start did not listen:\n${output}`);
  return { npm, url, exited, output: () => output };
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'runs the compiled service from dist/ and ends gracefully on %s to the npm process, leaving no process',
    async (signal) => {
      const { npm, url, exited, output } = await npmStart();
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      const processes = await descendantPids(npm.pid!);
      const commands = await Promise.all(processes.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8')));
      // Compiled JavaScript, not TypeScript through tsx.
      expect(commands.join('\n')).toContain('server/build/start.mjs');
      expect(commands.join('\n')).not.toContain('tsx');

      npm.kill(signal);
      await exited;
      expect(await waitUntilGone(processes)).toEqual([]);
      expect(await isRunning(npm.pid!)).toBe(false);
      expect(await isListening(url)).toBe(false);
      expect(output()).toContain(`"signal":"${signal}","msg":"shutting down"`);
    },
  );
});
