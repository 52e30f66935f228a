#!/usr/bin/env node
// Runs the TypeScript CLI without a build step, on the project's Node 22
// even when the shell's `node` is another version.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const wantedMajor = 22;

if (Number(process.versions.node.split('.')[0]) !== wantedMajor) {
  const require = createRequire(import.meta.url);
  const node = path.join(path.dirname(require.resolve('node/package.json')), 'bin/node');
  const result = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport('./main.ts', import.meta.url);
}
