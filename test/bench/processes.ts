import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  pid: number;
  rssMb(): Promise<number>;
  stop(): Promise<void>;
}

/** Runs an entry point in its own Node process (no tsx wrapper, so the pid is the server's). */
export async function startServer(
  script: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  // A leftover server on the port would answer in place of the new one and skew every figure.
  if (await answers(`http://127.0.0.1:${port}/`))
    throw new Error(`port ${port} is already serving; stop the old process first`);
  // Compiled JavaScript runs as it is; TypeScript through the tsx loader.
  const loader = /\.m?js$/.test(script) ? [] : ['--import', 'tsx'];
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, ...loader, script, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const started = Date.now();
  while (!(await answers(`http://127.0.0.1:${port}/`))) {
    if (child.exitCode !== null || Date.now() - started > 60_000)
      throw new Error(`${script} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}
