// Builds @bullpen/client into client/dist/: ES2022 JavaScript, one file per source file
// (the browser entry loads only index, errors and sse). With `--types` (the package's
// prepack), also the declarations, against a generated standalone api-types.ts.
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../..');
const clientDir = path.join(root, 'client');
const distDir = path.join(clientDir, 'dist');
/** The library's own files: what index.d.ts needs. The CLI ships as JavaScript only. */
const libraryFiles = ['index.ts', 'errors.ts', 'sse.ts', 'api-types.ts'];

async function sourceFiles() {
  const entries = await readdir(clientDir, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.ts') && !entry.startsWith('dist') && !entry.startsWith('.types'));
}

export async function buildClientJs(esbuild) {
  await rm(distDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: (await sourceFiles()).map((file) => path.join(clientDir, file)),
    outdir: distDir,
    outbase: clientDir,
    bundle: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'warning',
  });
}

/** Declarations of the library, compiled from a copy whose api-types.ts stands alone. */
export async function buildClientTypes() {
  const [{ default: ts }, { generateApiTypes }] = await Promise.all([
    import('typescript'),
    import('./generate-api-types.mjs'),
  ]);
  const staging = path.join(clientDir, '.types-build');
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  for (const file of libraryFiles.filter((file) => file !== 'api-types.ts'))
    await cp(path.join(clientDir, file), path.join(staging, file));
  await writeFile(path.join(staging, 'api-types.ts'), generateApiTypes(root));
  const program = ts.createProgram(
    libraryFiles.map((file) => path.join(staging, file)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
      types: [],
      strict: true,
      skipLibCheck: true,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: distDir,
      rootDir: staging,
    },
  );
  const result = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  await rm(staging, { recursive: true, force: true });
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`client declarations failed:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  await buildClientJs(await import('esbuild'));
  if (process.argv.includes('--types')) await buildClientTypes();
  console.error(`build: client/dist in ${Date.now() - started} ms`);
}
