import { access } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './processes.js';
import { serviceNodeFlags } from '../../server/build/node-flags.mjs';

/**
 * The Bullpen entry point the benchmark runs, as users run it: the compiled
 * build (`dist/server/main.js`) when there is one; otherwise a bundle of
 * server/main.ts made here with esbuild (dependencies left external, kept
 * under node_modules/.cache, never committed), so that figures never
 * include the TypeScript loader. It runs with the Node.js flags `npm start` passes.
 */
export async function bullpenEntry(): Promise<{ script: string; runtime: string; nodeFlags: string[] }> {
  const compiled = path.join(repoRoot, 'dist', 'server', 'main.js');
  if (await access(compiled).then(() => true, () => false)) return { script: compiled, runtime: 'dist/server/main.js', nodeFlags: serviceNodeFlags };
  const outfile = path.join(repoRoot, 'node_modules', '.cache', 'bench', 'bullpen.mjs');
  await build({
    entryPoints: [path.join(repoRoot, 'server', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return { script: outfile, runtime: 'esbuild bundle of server/main.ts', nodeFlags: serviceNodeFlags };
}
