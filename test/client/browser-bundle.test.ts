import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/process.js';

/** Packages and folders that only the server may load. */
const serverOnly =
  /(^|\/)node_modules\/(express|ioredis|bullmq|@mikro-orm|pino|lucia|prom-client|rate-limiter-flexible|swagger-ui-express|trpc-to-openapi|zod)\/|^(server|routers|domain)\//;

describe('the client package in a browser bundle', () => {
  it('bundles client/index.ts for the browser without any server-only module', async () => {
    const result = await build({
      entryPoints: [path.join(repoRoot, 'client/index.ts')],
      absWorkingDir: repoRoot,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(result.errors).toEqual([]);
    expect(inputs).toContain('client/index.ts');
    expect(inputs.some((input) => input.startsWith('node_modules/@trpc/client/'))).toBe(true);
    expect(inputs.filter((input) => serverOnly.test(input))).toEqual([]);
    expect(inputs.filter((input) => input.startsWith('contracts/'))).toEqual([]);
  });
});
