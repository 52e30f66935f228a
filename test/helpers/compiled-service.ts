import { createHash } from 'node:crypto';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './process.js';

let built: Promise<string> | undefined;

/**
 * The service compiled as `npm start` and the image run it (one ESM bundle of
 * server/main.ts, packages external), built fresh from the sources once per
 * test process, so a stale dist/ is never measured and the TypeScript loader
 * (its own thread and heap) never counts in the service's memory. It lives
 * under node_modules/.cache, named by its content (test processes building
 * the same sources share one file), so the bundle resolves packages as dist/ does.
 */
export function compiledServiceEntry(): Promise<string> {
  built ??= (async () => {
    const result = await build({
      entryPoints: [path.join(repoRoot, 'server', 'main.ts')],
      outfile: 'main.mjs',
      write: false,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
    });
    const code = result.outputFiles[0]!.contents;
    const directory = path.join(repoRoot, 'node_modules', '.cache', 'compiled-service');
    const outfile = path.join(directory, `main-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (
      await access(outfile).then(
        () => false,
        () => true,
      )
    ) {
      await mkdir(directory, { recursive: true });
      // Written aside and renamed: another test process may be loading the same file.
      const aside = `${outfile}.${process.pid}.tmp`;
      await writeFile(aside, code);
      await rename(aside, outfile);
    }
    return outfile;
  })();
  return built;
}
