// Compiles the service to dist/ (one ESM bundle of our own source; packages stay in
// node_modules) and the client's JavaScript to client/dist/. Run by `npm install` (prepare) and by `npm start` when dist/ is stale.
// Without esbuild (a production install: `npm ci --omit=dev`) it says so and leaves dist/ alone.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildClientJs } from '../../client/build/build.mjs';

export const root = path.resolve(import.meta.dirname, '../..');
export const distEntry = path.join(root, 'dist/server/main.js');

/** Loads esbuild, or null when it is not installed. */
export async function loadCompiler() {
  try {
    return await import('esbuild');
  } catch {
    return null;
  }
}

/**
 * Packages bundled into dist/ rather than loaded from node_modules, as side-effect-free code so
 * only what the service calls is kept. trpc-to-openapi's index loads its every adapter (h3,
 * co-body, mime-db) and its generator (openapi3-ts, yaml) at import; the running service calls
 * four of its utilities at startup and its generator only when /api/openapi.json is first asked
 * for. Bundled, the rest is never loaded: ~1.5 MB less heap after start.
 */
const inlinedPackages = ['trpc-to-openapi'];

const packageOf = (specifier) => /^(@[^/]+\/[^/]+|[^/]+)/.exec(specifier)?.[1];

/** Every package external (loaded from node_modules at run time) except `inlinedPackages` and their own files. */
const externalsExceptInlined = {
  name: 'externals-except-inlined',
  setup(build) {
    const insideInlined = (file) => inlinedPackages.some((name) => file.includes(`/node_modules/${name}/`));
    build.onResolve({ filter: /^[^./]|^\.\.?\// }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const bare = !args.path.startsWith('.') && !path.isAbsolute(args.path);
      if (bare && !inlinedPackages.includes(packageOf(args.path))) return { external: true };
      if (!bare && !insideInlined(args.importer)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true },
      });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, sideEffects: false };
    });
  },
};

/** Bundles server/main.ts and what it imports from routers/ and contracts/ into dist/server/. */
export async function buildService(esbuild) {
  const started = Date.now();
  await mkdir(path.dirname(distEntry), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(root, 'server/main.ts')],
    outdir: path.dirname(distEntry),
    absWorkingDir: root,
    bundle: true,
    // Packages load from node_modules at run time, as under tsx; only our own source (and inlinedPackages) is bundled.
    plugins: [externalsExceptInlined],
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await writeFile(path.join(root, 'dist/package.json'), '{ "type": "module" }\n');
  return Date.now() - started;
}

export const libraryEntry = path.join(root, 'dist/bullpen.js');
export const libraryTypes = path.join(root, 'dist/types/routers/_bullpen.d.ts');

/**
 * The package's in-process entry (`import { createBullpen } from 'bullpen'`,
 * routers/_bullpen.ts) as plain JavaScript: one ESM bundle of our own source,
 * packages external, so plain Node runs it without a TypeScript loader.
 */
export async function buildLibrary(esbuild) {
  await esbuild.build({
    entryPoints: [path.join(root, 'routers/_bullpen.ts')],
    outfile: libraryEntry,
    absWorkingDir: root,
    bundle: true,
    plugins: [externalsExceptInlined],
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await writeFile(path.join(root, 'dist/package.json'), '{ "type": "module" }\n');
}

/**
 * Its declarations (dist/types/, one .d.ts per source file the entry reaches),
 * emitted by the TypeScript compiler with the project's own options, so a
 * TypeScript consumer gets `createBullpen` and every procedure typed. Skipped
 * (false) without the compiler, as in a production install.
 */
export async function buildLibraryTypes() {
  const ts = await import('typescript').then(
    (module) => module.default,
    () => null,
  );
  if (!ts) return false;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(String(diagnostic.messageText));
      },
    },
  );
  const options = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    outDir: path.join(root, 'dist/types'),
    rootDir: root,
  };
  const program = ts.createProgram({ rootNames: [path.join(root, 'routers/_bullpen.ts')], options });
  const { diagnostics } = program.emit();
  if (diagnostics.length > 0)
    throw new Error(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      }),
    );
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const esbuild = await loadCompiler();
  if (!esbuild) {
    console.error('build: esbuild is not installed (a production install); dist/ is used as it is');
    process.exit(process.argv.includes('--if-available') ? 0 : 1);
  }
  const ms = await buildService(esbuild);
  // The client's JavaScript too, so the workspace's `bullpen` command runs; its declarations are built at pack time.
  await buildClientJs(esbuild);
  await buildLibrary(esbuild);
  const typed = await buildLibraryTypes();
  console.error(
    `build: dist/server/main.js in ${ms} ms, client/dist, dist/bullpen.js${typed ? ' and dist/types/' : ' (no TypeScript: no declarations)'}`,
  );
}
