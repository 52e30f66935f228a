import * as esbuild from 'esbuild';
import { buildService, distEntry } from '../../server/build/build.mjs';
import { serviceEnvironment, serviceNodeFlags } from '../../server/build/node-flags.mjs';

/**
 * The Bullpen entry point the benchmark runs, as users run it: the compiled
 * build (`dist/server/main.js`), rebuilt here first as `npm run build` does so
 * that figures are of the current sources and never include the TypeScript
 * loader. It runs with the Node.js flags and environment `npm start` passes.
 */
export async function bullpenEntry(): Promise<{
  script: string;
  runtime: string;
  nodeFlags: string[];
  env: Record<string, string>;
}> {
  await buildService(esbuild);
  return { script: distEntry, runtime: 'dist/server/main.js', nodeFlags: serviceNodeFlags, env: serviceEnvironment };
}
