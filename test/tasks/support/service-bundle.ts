import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../../helpers/process.js';

let bundled: Promise<string> | undefined;

/**
 * server/main.ts compiled as `npm run build` compiles it (one ESM bundle, packages external),
 * once per test process and from the current sources (dist/ may be stale). A service process
 * then starts in ~2 s instead of ~12 s under tsx on two busy cores. Kept under node_modules so
 * its imports resolve as dist/'s do.
 */
function serviceBundle(): Promise<string> {
  bundled ??= (async () => {
    const outfile = path.join(repoRoot, 'node_modules', '.cache', 'bullpen-task-acceptance', `main-${process.pid}.mjs`);
    await mkdir(path.dirname(outfile), { recursive: true });
    await build({
      entryPoints: [path.join(repoRoot, 'server/main.ts')],
      outfile,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundled;
}

/** Deletes this process's bundle (afterAll), so the cache does not fill up run after run. */
export async function removeServiceBundle(): Promise<void> {
  const built = bundled;
  bundled = undefined;
  if (built) await rm(await built, { force: true });
}

export interface BundledService {
  api: string;
  child: ReturnType<typeof spawn>;
  output(): string;
  exited: Promise<unknown>;
}

/** Runs the compiled service as its own process (node itself: a signal reaches the service) until it prints its URL. */
export async function startBundledService(env: Record<string, string>): Promise<BundledService> {
  const child = spawn(process.execPath, [await serviceBundle()], {
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
