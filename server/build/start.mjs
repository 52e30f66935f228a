// `npm start`: runs the compiled service from dist/, rebuilding first when dist/ is
// missing or older than the sources. The service runs in this very process (no child),
// so a signal to `npm start` reaches it and its graceful shutdown.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildService, distEntry, loadCompiler, root } from './build.mjs';

const sourceDirs = ['server', 'routers', 'contracts'];
const sourceFiles = ['package.json'];

async function modifiedAt(file) {
  return (await stat(file).catch(() => null))?.mtimeMs ?? null;
}

/** The newest modification time among the service's sources (null where there are none, as in the image). */
async function newestSource() {
  let newest = null;
  for (const dir of sourceDirs) {
    const entries = await readdir(path.join(root, dir), { recursive: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.endsWith('.ts')) continue;
      const time = await modifiedAt(path.join(root, dir, entry));
      if (time !== null && (newest === null || time > newest)) newest = time;
    }
  }
  // package.json counts only beside sources: an image holds it with dist/ and nothing to build from.
  for (const file of sourceFiles) {
    const time = await modifiedAt(path.join(root, file));
    if (time !== null && newest !== null && time > newest) newest = time;
  }
  return newest;
}

async function ensureBuilt() {
  const built = await modifiedAt(distEntry);
  const sources = await newestSource();
  if (built !== null && (sources === null || built >= sources)) return;
  const esbuild = await loadCompiler();
  if (!esbuild) {
    const why = built === null ? 'dist/ is missing' : 'dist/ is older than the sources';
    console.error(
      `bullpen: ${why} and no compiler is installed: run \`npm install\` (it builds), or \`npm run build\``,
    );
    process.exit(1);
  }
  const ms = await buildService(esbuild);
  console.error(`bullpen: rebuilt dist/ in ${ms} ms`);
}

await ensureBuilt();
await import(distEntry);
