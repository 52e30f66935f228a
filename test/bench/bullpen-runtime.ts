import { access } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './processes.js';

/**
 * The Bullpen entry point the benchmark runs, as users run it: the compiled
 * build (`dist/server/main.js`) when there is one; otherwise a bundle of
 * server/main.ts made here with esbuild (dependencies left external, kept
 * under node_modules/.cache, never committed), so that figures never
 * include the TypeScript loader.
 */
export async function bullpenEntry(): Promise<{ script: string; runtime: string }> {
  const compiled = path.join(repoRoot, 'dist', 'server', 'main.js');
  if (await access(compiled).then(() => true, () => false)) return { script: compiled, runtime: 'dist/server/main.js' };
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
  return { script: outfile, runtime: 'esbuild bundle of server/main.ts' };
}
