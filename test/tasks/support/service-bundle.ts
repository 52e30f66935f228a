import { spawn } from 'node:child_process';
import { compiledServiceEntry } from '../../helpers/compiled-service.js';
import { repoRoot } from '../../helpers/process.js';

export interface BundledService {
  api: string;
  child: ReturnType<typeof spawn>;
  output(): string;
  exited: Promise<unknown>;
}

/** Runs the compiled service as its own process (node itself: a signal reaches the service) until it prints its URL. */
export async function startBundledService(env: Record<string, string>): Promise<BundledService> {
  const child = spawn(process.execPath, [await compiledServiceEntry()], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
    if (url) return { api: `${url}/api`, child, output: () => output, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
