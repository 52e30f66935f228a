import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './process.js';

let built: Promise<string> | undefined;

/**
 * The service compiled as `npm start` and the image run it (one ESM bundle of
 * server/main.ts, packages external), built fresh from the sources once per
 * test process, so a stale dist/ is never measured and the TypeScript loader
 * (its own thread and heap) never counts in the service's memory. It lives
 * under node_modules/.cache so the bundle resolves packages as dist/ does.
 */
export function compiledServiceEntry(): Promise<string> {
  built ??= (async () => {
    const outfile = path.join(repoRoot, 'node_modules', '.cache', 'compiled-service', `main-${process.pid}.mjs`);
    await mkdir(path.dirname(outfile), { recursive: true });
    await build({
      entryPoints: [path.join(repoRoot, 'server', 'main.ts')],
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
  return built;
}
