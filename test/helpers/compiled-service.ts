import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const builds = new Map<string, string>();

/**
 * An entry point (`source`, from the repository's root) compiled as `npm start` and the image run the service (one ESM bundle, packages
 * external), built fresh from the sources once per test process, so a stale dist/ is never measured and
 * the TypeScript loader (its own thread and heap, ~0.5 s of CPU a start) never counts. It lives under
 * node_modules/.cache, named by its content (test processes building the same sources share one file),
 * so the bundle resolves packages as dist/ does.
 */
export function compiledEntrySync(source: string): string {
  let built = builds.get(source);
  if (!built) {
    built = bundle(source);
    builds.set(source, built);
  }
  return built;
}

function bundle(source: string): string {
  const result = buildSync({
    entryPoints: [path.join(repoRoot, source)],
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
  const name = path.basename(source, '.ts');
  const outfile = path.join(directory, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(outfile)) {
    mkdirSync(directory, { recursive: true });
    // Written aside and renamed: another test process may be loading the same file.
    const aside = `${outfile}.${process.pid}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, outfile);
  }
  return outfile;
}

/** The service (server/main.ts) compiled from the sources as they are now. */
export const compiledServiceEntry = async () => compiledEntrySync('server/main.ts');

/** The `bullpen` CLI (client/cli/main.ts) compiled from the sources as they are now. */
export const compiledCliEntry = () => compiledEntrySync('client/cli/main.ts');
